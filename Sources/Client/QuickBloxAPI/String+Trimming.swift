extension String {
    /// Trims the given characters from both ends, scalar by scalar (FoundationEssentials
    /// has no CharacterSet trimming, and "\r\n" would be a single Character).
    func trimmingScalars(_ set: String) -> String {
        let scalars = Set(set.unicodeScalars)
        var slice = unicodeScalars[...]
        while let first = slice.first, scalars.contains(first) { slice.removeFirst() }
        while let last = slice.last, scalars.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
