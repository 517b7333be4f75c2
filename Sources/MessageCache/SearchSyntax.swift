/// How the text of a search is read.
public enum SearchSyntax: Sendable {
    /// FTS5 query syntax: `AND`, `OR`, `NOT`, `"phrases"`, `prefix*`, `NEAR(...)`.
    case fts5
    /// Plain words, all of which must occur; a word ending in `*` is a prefix.
    /// Quotes and operators are taken literally, so no input is a syntax error.
    case plainWords

    /// The FTS5 query for `text`.
    func ftsQuery(_ text: String) -> String {
        switch self {
        case .fts5:
            return text
        case .plainWords:
            return text.split(whereSeparator: { $0.isWhitespace }).map { word -> String in
                var word = Substring(word)
                let prefix = word.count > 1 && word.hasSuffix("*")
                if prefix { word = word.dropLast() }
                let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                return prefix ? quoted + "*" : quoted
            }.joined(separator: " ")
        }
    }
}

extension Substring {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        for character in self {
            if String(character) == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
