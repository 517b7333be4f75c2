/// One full-text search result.
public struct SearchHit: Hashable, Sendable {
    public var message: CachedMessage
    /// A fragment of the text with the matches between the caller's markers.
    public var snippet: String
    /// bm25 score: lower (more negative) is more relevant; hits come best first.
    public var score: Double
}
