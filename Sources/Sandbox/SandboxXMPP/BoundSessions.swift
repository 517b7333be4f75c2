/// The streams with a bound resource, by user and resource: whom a stanza to a user reaches.
/// The server binds and unbinds; routing, rooms and presence read it. Loop thread only.
final class BoundSessions {
    private var byUser: [Int: [String: XMPPClientConnection]] = [:]

    /// `userId`'s bound streams by resource; nil when the user has none.
    subscript(userId: Int) -> [String: XMPPClientConnection]? { byUser[userId] }

    /// No stream is bound.
    var isEmpty: Bool { byUser.isEmpty }

    /// `connection` is `userId`'s `resource` now (replacing whichever was).
    func bind(_ connection: XMPPClientConnection, userId: Int, resource: String) {
        byUser[userId, default: [:]][resource] = connection
    }

    /// `userId`'s `resource` is bound to nothing.
    func unbind(userId: Int, resource: String) {
        byUser[userId]?[resource] = nil
        if byUser[userId]?.isEmpty == true { byUser[userId] = nil }
    }
}

@available(*, unavailable) extension BoundSessions: Sendable {}
