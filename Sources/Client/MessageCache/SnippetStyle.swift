/// How `snippet()` marks matches and cuts the text.
package struct SnippetStyle: Hashable, Sendable {
    package var open: String
    package var close: String
    /// Put where the text was cut.
    package var ellipsis: String
    /// The most tokens in a snippet (SQLite caps it at 64).
    package var tokens: Int

    package init(open: String, close: String, ellipsis: String = "…", tokens: Int = 16) {
        self.open = open
        self.close = close
        self.ellipsis = ellipsis
        self.tokens = max(1, min(tokens, 64))
    }

    /// `[match]`
    package static let brackets = SnippetStyle(open: "[", close: "]")
    /// ANSI bold, for a terminal.
    package static let ansiBold = SnippetStyle(open: "\u{1B}[1m", close: "\u{1B}[22m")
}
