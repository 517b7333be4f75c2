/// A dialog as the dialogs screen lists it and the chat view's status line names it.
public struct DialogSummary: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case `private`, group, `public` }

    public var id: String
    /// Sanitized: the group's name, or the other user's in a private dialog.
    public var title: String
    public var kind: Kind
    public var unread: Int
    /// Sanitized, one line.
    public var lastMessage: String?
    public var lastMessageDate: Int?
    /// For a private dialog: the other user (typing notifications name no dialog).
    public var peerID: Int?

    public init(id: String, title: String, kind: Kind, unread: Int = 0, lastMessage: String? = nil,
                lastMessageDate: Int? = nil, peerID: Int? = nil) {
        self.id = id; self.title = title; self.kind = kind; self.unread = unread
        self.lastMessage = lastMessage; self.lastMessageDate = lastMessageDate; self.peerID = peerID
    }
}
