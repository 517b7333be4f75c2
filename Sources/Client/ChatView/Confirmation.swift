/// A question above the input that the next key answers (`y` yes, anything else no).
package enum Confirmation: Hashable, Sendable {
    /// `x`: delete this message (one of ours) for everyone.
    case delete(ShownMessage)
    /// `/block`, `/unblock`: the other person of the open private dialog, by id and name.
    case block(userID: Int, name: String)
    case unblock(userID: Int, name: String)

    package var question: String {
        switch self {
        case .delete: return "delete this message? y/n"
        case .block(_, let name): return "block \(name)? Their messages will no longer reach you. y/N"
        case .unblock(_, let name): return "unblock \(name)? y/N"
        }
    }

    /// What the status line says when the answer is no.
    package var declined: String {
        switch self {
        case .delete: return "not deleted"
        case .block: return "not blocked"
        case .unblock: return "not unblocked"
        }
    }
}
