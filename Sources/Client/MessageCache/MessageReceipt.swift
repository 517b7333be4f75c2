/// One user's receipt for one message: a XEP-0333 marker that arrived, or the
/// user's own read mark. `read` implies delivered.
package struct MessageReceipt: Sendable, Hashable {
    package enum Kind: Sendable, Hashable { case delivered, read }
    package var messageID: String
    package var userID: Int
    package var kind: Kind

    package init(messageID: String, userID: Int, kind: Kind) {
        self.messageID = messageID; self.userID = userID; self.kind = kind
    }
}
