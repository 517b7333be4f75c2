/// A bar of `width` cells, `#` for what is done: `[#####.....]`.
package enum ProgressBar {
    package static func render(done: Int, of total: Int, width: Int = 20) -> String {
        let filled = total == 0 ? width : done * width / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }
}
