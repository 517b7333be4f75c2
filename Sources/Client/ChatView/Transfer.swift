/// An upload or download under way, or just ended.
package struct Transfer: Hashable, Sendable {
    /// `preview`: an image fetched only to show its preview (kept in the state
    /// directory's previews, not where the user saves files).
    package enum Direction: Hashable, Sendable { case upload, download, preview }
    /// Where it stands: under way, or ended one way or the other.
    package enum Outcome: Hashable, Sendable {
        case running
        case succeeded
        /// Why, in words for the cell.
        case failed(String)
    }
    package var direction: Direction
    package var done: Int64
    /// Nil while unknown.
    package var total: Int64?
    package var outcome: Outcome

    package init(direction: Direction, done: Int64 = 0, total: Int64? = nil, outcome: Outcome = .running) {
        self.direction = direction; self.done = done; self.total = total; self.outcome = outcome
    }

    /// 0...100, or nil while the total is unknown.
    package var percent: Int? {
        guard let total, total > 0 else { return outcome == .succeeded ? 100 : nil }
        return Int(min(100, done * 100 / total))
    }
}
