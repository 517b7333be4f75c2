/// How `snippet()` marks matches and cuts the text.
public struct SnippetStyle: Hashable, Sendable {
    public var open: String
    public var close: String
    /// Put where the text was cut.
    public var ellipsis: String
    /// The most tokens in a snippet (SQLite caps it at 64).
    public var tokens: Int

    public init(open: String, close: String, ellipsis: String = "…", tokens: Int = 16) {
        self.open = open
        self.close = close
        self.ellipsis = ellipsis
        self.tokens = max(1, min(tokens, 64))
    }

    /// `[match]`
    public static let brackets = SnippetStyle(open: "[", close: "]")
    /// ANSI bold, for a terminal.
    public static let ansiBold = SnippetStyle(open: "\u{1B}[1m", close: "\u{1B}[22m")
}
