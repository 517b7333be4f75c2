/// A search as a person types it into a web search box, read into terms and written as
/// an FTS5 query in which every term is a quoted string, so that no text reaches FTS5's
/// parser as syntax: words must all occur, `-word` (or `NOT word`) leaves out what has it,
/// `"a phrase"` is a phrase (`-"a phrase"` leaves it out), `word*` is a prefix, and
/// `OR` (in capitals) between terms takes either. `AND` is what words do anyway. A word
/// with punctuation inside (`cat.jpg`) is the phrase it reads as; a term with no letter
/// or digit (`!!!`, a lone `-`) matches nothing and is left out. What cannot be read (only
/// words left out, `OR` with nothing on one side) is a `MessageCacheError` of kind
/// `.invalidSearchQuery` whose message says why.
package struct SearchQuery: Hashable, Sendable {
    package struct Term: Hashable, Sendable {
        package var text: String
        package var isPrefix: Bool
    }

    /// Terms that must all match; each is a list of terms any one of which will do (`OR`).
    package private(set) var required: [[Term]] = []
    /// Terms none of which may match.
    package private(set) var excluded: [Term] = []

    private enum Token: Equatable {
        case term(Term, excluded: Bool)
        case or, and, not
    }

    package init(parsing text: String) throws(MessageCacheError) {
        var orPending = false, notPending = false
        // Whether the last term may take an `OR` after it (a required one).
        var lastWasRequired = false
        for token in Self.tokens(text) {
            switch token {
            case .and:
                guard !orPending else { throw Self.invalid("OR needs a word on each side, as in 'lunch OR dinner'") }
            case .not:
                notPending = true
            case .or:
                guard lastWasRequired, !orPending, !notPending else {
                    throw Self.invalid("OR needs a word on each side, as in 'lunch OR dinner'")
                }
                orPending = true
            case .term(let term, let minus):
                let leftOut = minus || notPending
                notPending = false
                if leftOut {
                    guard !orPending else { throw Self.invalid("a word left out (-\(term.text)) cannot be one side of OR") }
                    excluded.append(term)
                } else if orPending {
                    required[required.count - 1].append(term)
                } else {
                    required.append([term])
                }
                orPending = false
                lastWasRequired = !leftOut
            }
        }
        if orPending { throw Self.invalid("OR needs a word on each side, as in 'lunch OR dinner'") }
        if notPending { throw Self.invalid("NOT needs a word after it") }
        guard !required.isEmpty else {
            throw Self.invalid(excluded.isEmpty ? "the search text is empty" : "only words to leave out: give at least one word to look for")
        }
    }

    /// The FTS5 expression: `("a" OR "b") AND "c"* NOT ("d" OR "e")`.
    package var ftsQuery: String {
        let positive = required.map { group in
            group.count == 1 ? Self.quoted(group[0]) : "(" + group.map(Self.quoted).joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
        guard !excluded.isEmpty else { return positive }
        return "(" + positive + ") NOT (" + excluded.map(Self.quoted).joined(separator: " OR ") + ")"
    }

    private static func quoted(_ term: Term) -> String {
        "\"" + term.text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" + (term.isPrefix ? "*" : "")
    }

    private static func invalid(_ message: String) -> MessageCacheError {
        MessageCacheError(kind: .invalidSearchQuery, message: message)
    }

    /// Words split at blanks and quotes, phrases between quotes (an unclosed one runs to the end).
    private static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var characters = Substring(text)
        while let first = characters.first {
            if first.isWhitespace { characters.removeFirst(); continue }
            var minus = false
            if first == "-", characters.dropFirst().first == "\"" {
                minus = true
                characters.removeFirst()
            }
            if characters.first == "\"" {
                characters.removeFirst()
                let phrase = characters.prefix { $0 != "\"" }
                characters = characters.dropFirst(phrase.count).dropFirst()
                if let term = term(String(phrase), isPrefix: false) { tokens.append(.term(term, excluded: minus)) }
                continue
            }
            var word = characters.prefix { !$0.isWhitespace && $0 != "\"" }
            characters = characters.dropFirst(word.count)
            switch word {
            case "OR": tokens.append(.or); continue
            case "AND": tokens.append(.and); continue
            case "NOT": tokens.append(.not); continue
            default: break
            }
            if word.count > 1 && word.first == "-" { minus = true; word = word.dropFirst() }
            let prefix = word.count > 1 && word.last == "*"
            if prefix { word = word.dropLast() }
            if let term = term(String(word), isPrefix: prefix) { tokens.append(.term(term, excluded: minus)) }
        }
        return tokens
    }

    /// A term, unless it has no letter or digit for the index to match.
    private static func term(_ text: String, isPrefix: Bool) -> Term? {
        guard text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { return nil }
        return Term(text: text, isPrefix: isPrefix)
    }
}
