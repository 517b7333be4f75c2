/// A position in a dialog's history: messages are ordered by date, then id.
package struct MessageCursor: Hashable, Sendable, Comparable {
    package var dateSent: Int
    package var id: String

    package init(dateSent: Int, id: String) {
        self.dateSent = dateSent; self.id = id
    }

    package static func < (lhs: MessageCursor, rhs: MessageCursor) -> Bool {
        (lhs.dateSent, lhs.id) < (rhs.dateSent, rhs.id)
    }
}
