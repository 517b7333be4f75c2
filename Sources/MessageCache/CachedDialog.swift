/// A dialog as cached: the typed fields queries need plus the server's JSON text.
public struct CachedDialog: Hashable, Sendable {
    /// `_id`, 24 hex digits.
    public var id: String
    public var type: DialogType
    /// `name`; empty when the server sent none.
    public var name: String
    /// `occupants_ids`.
    public var occupantIDs: [Int]
    public var lastMessage: String?
    /// `last_message_date_sent`, unix seconds; nil for a dialog without messages.
    public var lastMessageDateSent: Int?
    /// `unread_messages_count`.
    public var unreadCount: Int
    /// `updated_at` as unix seconds (the caller converts the ISO text).
    public var updatedAt: Int
    /// The dialog object exactly as the server sent it.
    public var rawJSON: String

    public init(
        id: String, type: DialogType, name: String, occupantIDs: [Int], lastMessage: String? = nil,
        lastMessageDateSent: Int? = nil, unreadCount: Int = 0, updatedAt: Int, rawJSON: String
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
    }
}
