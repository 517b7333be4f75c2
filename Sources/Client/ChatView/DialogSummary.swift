import ChatIdentifiers

/// A dialog as the dialogs screen lists it and the chat view's status line names it.
package struct DialogSummary: Hashable, Sendable {
    package enum Kind: String, Hashable, Sendable { case `private`, group, `public` }

    package var id: DialogID
    /// Sanitized: the group's name, or the other user's in a private dialog.
    package var title: String
    package var kind: Kind
    package var unread: Int
    /// Sanitized, one line.
    package var lastMessage: String?
    package var lastMessageDate: Int?
    /// For a private dialog: the other user (typing notifications name no dialog).
    package var peerID: Int?
    /// Everyone in the dialog, us too (a group's header counts who is online).
    package var occupantIDs: [Int]
    /// The user muted it (docs/protocol.md §5, "Notification settings"): its messages notify nobody.
    package var muted: Bool

    package init(id: DialogID, title: String, kind: Kind, unread: Int = 0, lastMessage: String? = nil,
                lastMessageDate: Int? = nil, peerID: Int? = nil, occupantIDs: [Int] = [], muted: Bool = false) {
        self.id = id; self.title = title; self.kind = kind; self.unread = unread
        self.lastMessage = lastMessage; self.lastMessageDate = lastMessageDate; self.peerID = peerID
        self.occupantIDs = occupantIDs
        self.muted = muted
    }
}
