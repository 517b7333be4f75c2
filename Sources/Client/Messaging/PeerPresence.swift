/// Whether a user is online, as the chat engine tells it (`ChatEngineEvent.presence`).
package enum PeerPresence: Sendable, Equatable {
    case online
    /// Offline since this Unix time (seconds).
    case lastSeen(at: Int)
    /// Offline, since when the server does not say (never seen, or not ours to know).
    case offline
}
