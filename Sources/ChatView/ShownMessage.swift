/// A message as the chat view shows it: text already safe for a terminal (the edge
/// runs everything other users wrote through `TerminalText.sanitize`), the sender's
/// name, and how far it got.
public struct ShownMessage: Hashable, Sendable {
    /// The message's `_id`; for one still in the outbox, its outbox (client) id.
    public var id: String
    public var dialogID: String
    public var senderID: Int
    public var senderName: String
    /// Empty for a message that is only attachments.
    public var text: String
    /// Unix seconds.
    public var dateSent: Int
    public var outgoing: Bool
    /// For outgoing messages; incoming ones are `.sent`.
    public var delivery: Delivery
    /// For incoming messages: whether this user has read it (server's `read_ids`, or shown here).
    public var readByMe: Bool
    public var attachments: [ShownAttachment]

    public init(id: String, dialogID: String, senderID: Int, senderName: String, text: String, dateSent: Int,
                outgoing: Bool, delivery: Delivery = .sent, readByMe: Bool = true, attachments: [ShownAttachment] = []) {
        self.id = id; self.dialogID = dialogID; self.senderID = senderID; self.senderName = senderName
        self.text = text; self.dateSent = dateSent; self.outgoing = outgoing; self.delivery = delivery
        self.readByMe = readByMe; self.attachments = attachments
    }

    public var cursor: MessageCursor { MessageCursor(dateSent: dateSent, id: id) }
}
