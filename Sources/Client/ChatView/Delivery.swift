/// How far an outgoing message got.
package enum Delivery: Hashable, Sendable {
    /// In the outbox, not tried yet (offline).
    case queued
    /// Written to the server, not acknowledged yet.
    case sending
    /// Tried and not acknowledged; it stays in the outbox and is sent again.
    case undelivered(String)
    /// Refused for good (the other person blocks us): not in the outbox, never sent again.
    case refused(String)
    /// On the server.
    case sent
    /// Another occupant's client has it.
    case delivered
    /// Another occupant has seen it.
    case read

    package var isPending: Bool {
        switch self {
        case .queued, .sending, .undelivered, .refused: return true
        case .sent, .delivered, .read: return false
        }
    }
}
