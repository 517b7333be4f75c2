/// A chat message as cached: the typed fields queries need plus the server's JSON text.
public struct CachedMessage: Hashable, Sendable {
    /// `_id`, 24 hex digits; the identity used to de-duplicate.
    public var id: String
    /// `chat_dialog_id`.
    public var dialogID: String
    public var senderID: Int
    /// `recipient_id`; 0 in groups.
    public var recipientID: Int
    /// `date_sent`, unix seconds.
    public var dateSent: Int
    /// `message`; empty when the server sent none (an attachment only).
    public var text: String
    /// The message object exactly as the server sent it.
    public var rawJSON: String

    public init(id: String, dialogID: String, senderID: Int, recipientID: Int = 0, dateSent: Int, text: String, rawJSON: String) {
        self.id = id
        self.dialogID = dialogID
        self.senderID = senderID
        self.recipientID = recipientID
        self.dateSent = dateSent
        self.text = text
        self.rawJSON = rawJSON
    }
}
