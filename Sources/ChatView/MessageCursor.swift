/// A position in a dialog's history: messages are ordered by date, then id.
public struct MessageCursor: Hashable, Sendable, Comparable {
    public var dateSent: Int
    public var id: String

    public init(dateSent: Int, id: String) {
        self.dateSent = dateSent; self.id = id
    }

    public static func < (lhs: MessageCursor, rhs: MessageCursor) -> Bool {
        (lhs.dateSent, lhs.id) < (rhs.dateSent, rhs.id)
    }
}
