// Trimming for parameters and headers the sandbox reads (HTTP's optional whitespace).

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    package var trimmingSpaces: Substring {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return Substring(s)
    }
}
