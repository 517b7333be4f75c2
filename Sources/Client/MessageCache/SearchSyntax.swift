/// How the text of a search is read.
package enum SearchSyntax: Sendable {
    /// FTS5 query syntax: `AND`, `OR`, `NOT`, `"phrases"`, `prefix*`, `NEAR(...)`.
    case fts5
    /// Plain words, all of which must occur; a word ending in `*` is a prefix.
    /// Quotes and operators are taken literally, so no input is a syntax error.
    case plainWords
    /// As a web search box reads it (`SearchQuery`): words, `-word`, `"phrases"`, `prefix*`,
    /// `OR`; what it cannot read is a clear error, never FTS5's.
    case webSearch

    /// The FTS5 query for `text`.
    func ftsQuery(_ text: String) throws(MessageCacheError) -> String {
        switch self {
        case .fts5:
            return Self.quotingPunctuatedWords(text)
        case .webSearch:
            return try SearchQuery(parsing: text).ftsQuery
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

extension SearchSyntax {
    /// FTS5 syntax, except that a word with punctuation inside it (`cat.jpg`,
    /// `report-2026`, `it's`), which FTS5 would reject, is taken as the phrase it
    /// reads as (`"cat.jpg"`): names of attachments are searched like that.
    /// Quoted text, operators and `*`, `^`, `:`, `()`, `{}` are left alone.
    static func quotingPunctuatedWords(_ text: String) -> String {
        func isBareword(_ s: Unicode.Scalar) -> Bool {
            s.value >= 0x80 || s.value == 0x1A || s == "_" || ("0"..."9").contains(s) || ("a"..."z").contains(s) || ("A"..."Z").contains(s)
        }
        let syntax: Set<Unicode.Scalar> = ["\"", "(", ")", "*", ":", "^", "+", "{", "}", ","]
        var out = String.UnicodeScalarView()
        var word = String.UnicodeScalarView()
        var quoted = false
        func flush() {
            let punctuated = word.contains(where: isBareword) && word.contains { !isBareword($0) }
            if punctuated { out.append("\"") }
            out.append(contentsOf: word)
            if punctuated { out.append("\"") }
            word.removeAll()
        }
        for scalar in text.unicodeScalars {
            if quoted {
                out.append(scalar)
                if scalar == "\"" { quoted = false }
            } else if scalar.properties.isWhitespace || syntax.contains(scalar) {
                flush()
                out.append(scalar)
                if scalar == "\"" { quoted = true }
            } else {
                word.append(scalar)
            }
        }
        flush()
        return String(out)
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
