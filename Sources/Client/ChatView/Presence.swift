/// Whether another user is online, as the view shows it: in a private dialog's header, as a
/// mark in the dialog list, in a group's count of who is online.
package enum Presence: Hashable, Sendable {
    case online
    /// Offline since this Unix time.
    case lastSeen(at: Int)
    /// Offline, since when nobody says.
    case offline
}
