/// One full-text search result.
package struct SearchHit: Hashable, Sendable {
    package var message: CachedMessage
    /// A fragment of the text with the matches between the caller's markers.
    package var snippet: String
    /// bm25 score: lower (more negative) is more relevant; hits come best first.
    package var score: Double
}
