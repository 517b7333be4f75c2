import ChatIdentifiers

/// A message as the chat view shows it: text already safe for a terminal (the edge
/// runs everything other users wrote through `TerminalText.sanitize`), the sender's
/// name, and how far it got.
package struct ShownMessage: Hashable, Sendable {
    /// The message's `_id`; for one still in the outbox, its outbox (client) id.
    package var id: String
    package var dialogID: DialogID
    package var senderID: Int
    package var senderName: String
    /// Empty for a message that is only attachments.
    package var text: String
    /// Unix seconds.
    package var dateSent: Int
    package var outgoing: Bool
    /// For outgoing messages; incoming ones are `.sent`.
    package var delivery: Delivery
    /// For incoming messages: whether this user has read it (server's `read_ids`, or shown here).
    package var readByMe: Bool
    package var attachments: [ShownAttachment]
    /// What a reply or a forward quotes; nil for a plain message.
    package var quote: ShownQuote?
    /// Changed by its sender since it was sent (an edit seen here).
    package var edited = false

    package init(id: String, dialogID: DialogID, senderID: Int, senderName: String, text: String, dateSent: Int,
                outgoing: Bool, delivery: Delivery = .sent, readByMe: Bool = true, attachments: [ShownAttachment] = [],
                quote: ShownQuote? = nil) {
        self.id = id; self.dialogID = dialogID; self.senderID = senderID; self.senderName = senderName
        self.text = text; self.dateSent = dateSent; self.outgoing = outgoing; self.delivery = delivery
        self.readByMe = readByMe; self.attachments = attachments; self.quote = quote
    }

    package var cursor: MessageCursor { MessageCursor(dateSent: dateSent, id: id) }

    /// One line for a list or a notification: the text, else the first attachment as
    /// `[image] cat.jpg`; nil when there is neither.
    package var summary: String? {
        text.isEmpty ? attachments.first.map { "[\($0.kind)] \($0.name)" } : text
    }
}
