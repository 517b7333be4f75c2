/// The chat connection as the status line tells it. Times are the model's clock (unix seconds).
package enum ConnectionState: Hashable, Sendable {
    case connecting
    case connected
    /// Lost; the next attempt is due at `at`.
    case reconnecting(at: Double)
    /// Not reachable: why, and when it is tried again (nil: not by itself).
    case offline(String, retryAt: Double?)
}
