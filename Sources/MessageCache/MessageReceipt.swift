/// One user's receipt for one message: a XEP-0333 marker that arrived, or the
/// user's own read mark. `read` implies delivered.
public struct MessageReceipt: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case delivered, read }
    public var messageID: String
    public var userID: Int
    public var kind: Kind

    public init(messageID: String, userID: Int, kind: Kind) {
        self.messageID = messageID; self.userID = userID; self.kind = kind
    }
}
