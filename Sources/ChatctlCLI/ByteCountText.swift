/// A size for people, in SI units as file managers show them: `812 B`, `1.2 MB`, `340 MB`.
enum ByteCountText {
    static func format(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return "\(max(0, bytes)) B" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if value >= 99.95 { return "\(Int(value.rounded())) \(units[unit])" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
