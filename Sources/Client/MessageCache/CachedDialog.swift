import ChatIdentifiers

/// A dialog as cached: the typed fields queries need plus the server's JSON text.
package struct CachedDialog: Hashable, Sendable {
    /// `_id`, 24 hex digits.
    package var id: DialogID
    package var type: DialogType
    /// `name`; empty when the server sent none.
    package var name: String
    /// `occupants_ids`.
    package var occupantIDs: [Int]
    package var lastMessage: String?
    /// `last_message_date_sent`, unix seconds; nil for a dialog without messages.
    package var lastMessageDateSent: Int?
    /// `unread_messages_count`.
    package var unreadCount: Int
    /// `updated_at` as unix seconds (the caller converts the ISO text).
    package var updatedAt: Int
    /// The dialog object exactly as the server sent it.
    package var rawJSON: String
    /// The user muted it (its notification settings, docs/protocol.md §5); kept by the
    /// cache apart from the server's object, which does not carry it (`setDialogMuted`).
    package var muted: Bool
    /// When a mute for a while (`dialogs mute --for`) ends, Unix seconds; nil: until unmuted.
    /// chatctl's own (docs/protocol.md §5): the server's setting has no expiry.
    package var mutedUntil: Int?

    package init(
        id: DialogID, type: DialogType, name: String, occupantIDs: [Int], lastMessage: String? = nil,
        lastMessageDateSent: Int? = nil, unreadCount: Int = 0, updatedAt: Int, rawJSON: String, muted: Bool = false,
        mutedUntil: Int? = nil
    ) {
        self.id = id
        self.type = type
        self.name = name
        self.occupantIDs = occupantIDs
        self.lastMessage = lastMessage
        self.lastMessageDateSent = lastMessageDateSent
        self.unreadCount = unreadCount
        self.updatedAt = updatedAt
        self.rawJSON = rawJSON
        self.muted = muted
        self.mutedUntil = mutedUntil
    }
}
