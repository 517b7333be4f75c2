import ChatIdentifiers

/// A chat message as cached: the typed fields queries need plus the server's JSON text.
package struct CachedMessage: Hashable, Sendable {
    /// `_id`, 24 hex digits; the identity used to de-duplicate.
    package var id: String
    /// `chat_dialog_id`.
    package var dialogID: DialogID
    package var senderID: Int
    /// `recipient_id`; 0 in groups.
    package var recipientID: Int
    /// `date_sent`, unix seconds.
    package var dateSent: Int
    /// `message`; empty when the server sent none (an attachment only; the SDKs send
    /// `attachmentOnlyText` then).
    package var text: String
    /// The message object exactly as the server sent it.
    package var rawJSON: String
    /// `delivered_ids` as the server gave them, then users whose `received` or
    /// `displayed` marker came since, in the order learnt.
    package var deliveredIDs: [Int]
    /// `read_ids` as the server gave them, then users whose `displayed` marker came since.
    package var readIDs: [Int]
    /// The message's attachment objects as a JSON array, `""` when it has none
    /// (docs/protocol.md §8); their names are searchable.
    package var attachmentsJSON: String

    package init(id: String, dialogID: DialogID, senderID: Int, recipientID: Int = 0, dateSent: Int, text: String, rawJSON: String,
                deliveredIDs: [Int] = [], readIDs: [Int] = [], attachmentsJSON: String = "") {
        self.id = id
        self.dialogID = dialogID
        self.senderID = senderID
        self.recipientID = recipientID
        self.dateSent = dateSent
        self.text = text
        self.rawJSON = rawJSON
        self.deliveredIDs = deliveredIDs
        self.readIDs = readIDs
        self.attachmentsJSON = attachmentsJSON
    }

    /// The body the QuickBlox apps give a message that is only attachments (docs/protocol.md §8).
    package static let attachmentOnlyText = "[attachment]"

    /// How far the message got, as its sender sees it. The service counts the
    /// sender among the delivered and read ids, so only other users count.
    package var status: MessageStatus {
        if readIDs.contains(where: { $0 != senderID }) { return .read }
        if deliveredIDs.contains(where: { $0 != senderID }) { return .delivered }
        return .sent
    }
}
