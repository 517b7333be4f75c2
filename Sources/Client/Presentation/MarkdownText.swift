import HTTPTransport

/// Another user's text made inert in Markdown (CommonMark and GitHub's): it reads as
/// the words it is and can open no heading, list, quote, code block, link, image,
/// HTML, emphasis, table or math. Terminal control characters go first
/// (`TerminalText`); then every character that can start structure is escaped with a
/// backslash (any ASCII punctuation may be), and a line's leading blanks, which could
/// make a code block, become `&nbsp;`.
package enum MarkdownText {
    /// One line (a name, a label): line breaks become spaces.
    package static func inline(_ text: String) -> String {
        let clean = TerminalText.sanitize(text, newlines: .asSpaces)
        return escapedLine(trimmed(clean))
    }

    /// Text of several lines as the lines of one paragraph, to be joined by hard
    /// breaks (`\` at a line's end): an empty line would end the paragraph, so it is
    /// `&nbsp;`.
    package static func lines(_ text: String) -> [String] {
        let clean = TerminalText.sanitize(text)
        return clean.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" { line.removeLast() }
            var lead = ""
            while let first = line.first, first == " " || first == "\t" {
                lead += first == "\t" ? String(repeating: "&nbsp;", count: 4) : "&nbsp;"
                line.removeFirst()
            }
            if line.isEmpty { return lead.isEmpty ? "&nbsp;" : lead }
            return lead + escapedLine(String(line))
        }
    }

    /// Characters escaped wherever they are: emphasis, code spans, links and images,
    /// HTML and entities, tables, strikethrough, math, headings' closing `#`s.
    static let alwaysEscaped: Set<UInt8> = Set("\\`*_[]<>&|~$#".utf8)
    /// Characters that start a block at the beginning of a line: quotes, lists,
    /// thematic breaks and setext underlines, fences.
    static let escapedFirst: Set<UInt8> = Set(">-+=*_`~#<|".utf8)

    /// A line with no leading blank.
    private static func escapedLine(_ line: String) -> String {
        var out = ""
        out.reserveCapacity(line.utf8.count + 8)
        var digitsSoFar = 0 // a line that starts with digits and `.` or `)` would be an ordered list
        var atStart = true
        for scalar in line.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                if alwaysEscaped.contains(byte) || (atStart && escapedFirst.contains(byte))
                    || (digitsSoFar > 0 && digitsSoFar == out.unicodeScalars.count && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ")"))) {
                    out.unicodeScalars.append("\\")
                }
                if isDigit && digitsSoFar == out.unicodeScalars.count { digitsSoFar += 1 }
            }
            out.unicodeScalars.append(scalar)
            atStart = false
        }
        return out
    }

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }

    /// A link's destination, `<…>`-free: every byte outside the unreserved set and
    /// `/` percent-encoded (a saved file's name can hold spaces and brackets).
    package static func destination(_ path: String) -> String { PercentEncoding.encode(path, keeping: .pathCharacters) }
}
