/// Greedy word wrapping for help text; no Foundation, columns counted in Characters.
enum TextWrapping {
    /// Wraps `text` to `width` columns. The first line starts after `firstIndent`
    /// columns already used, later lines are indented by `indent` spaces.
    /// Blank lines in `text` separate paragraphs and are kept.
    static func wrap(_ text: String, width: Int = 80, indent: Int, firstIndent: Int? = nil) -> String {
        var lines: [String] = []
        var line = ""
        var column = firstIndent ?? indent
        var lineHasWords = false
        let pad = String(repeating: " ", count: indent)
        func breakLine() {
            lines.append(line)
            line = pad
            column = indent
            lineHasWords = false
        }
        if firstIndent == nil { line = pad }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, paragraph) in paragraphs.enumerated() {
            if number > 0 {
                breakLine()
                if paragraph.allSatisfy({ $0 == " " }) { continue }
            }
            for word in paragraph.split(separator: " ") {
                if lineHasWords && column + 1 + word.count > width { breakLine() }
                if lineHasWords { line += " "; column += 1 }
                line += word
                column += word.count
                lineHasWords = true
            }
        }
        lines.append(line)
        // Trailing blanks trimmed in place: the lazy reversed().drop().reversed() chain cost
        // `chatctl help` 11 M of its 14 M instructions.
        for index in lines.indices {
            while lines[index].last == " " { lines[index].removeLast() }
        }
        return lines.joined(separator: "\n")
    }
}
