import ChatIdentifiers

/// A chat message received over XMPP, in QuickBlox terms. The body is exactly what
/// the sender wrote: strip terminal control sequences before printing it
/// (`TerminalText`): another user's text must not drive this user's terminal.
package struct IncomingChatMessage: Sendable, Equatable {
    package var kind: OutgoingChatMessage.Kind
    /// The stanza id (the message's `_id`); empty when the stanza had none.
    package var id: String
    /// The full `from` JID: `{userId}-{appId}@domain/resource` or `{room}/{userId}`.
    package var from: ChatJID
    /// From the JID node (1:1) or the room nickname (groups); nil if not numeric.
    package var senderUserID: Int?
    /// `extraParams/dialog_id`, else (groups) the room JID's `{appId}_{dialogId}`.
    package var dialogID: DialogID?
    /// `extraParams/date_sent` in unix seconds, else the time it was received.
    package var dateSent: Int
    package var body: String
    /// Every other extraParams child with text, by element name.
    package var customParameters: [String: String]
    /// Each `<attachment/>` in extraParams (docs/protocol.md §8).
    package var attachments: [ChatAttachment]
    /// The sender asked for chat markers (`<markable/>`).
    package var markable: Bool

    package init(kind: OutgoingChatMessage.Kind, id: String, from: ChatJID, senderUserID: Int?, dialogID: DialogID?,
                dateSent: Int, body: String, customParameters: [String: String] = [:],
                attachments: [ChatAttachment] = [], markable: Bool = false) {
        self.kind = kind; self.id = id; self.from = from; self.senderUserID = senderUserID; self.dialogID = dialogID
        self.dateSent = dateSent; self.body = body; self.customParameters = customParameters
        self.attachments = attachments; self.markable = markable
    }
}
