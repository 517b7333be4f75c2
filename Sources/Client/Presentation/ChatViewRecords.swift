import ChatView
import MessageCache
import Messaging
import QuickBloxAPI

/// The cache's dialogs, messages and outbox entries as the chat view shows them:
/// everything another user wrote (text, names, file names) made safe for a terminal here.
package enum ChatViewRecords {
    package static func message(_ message: CachedMessage, me: Int, names: [Int: String]) -> ShownMessage {
        let attachments = message.attachments
        let quote = quote(message.quoted, names: names)
        let placeholder = !attachments.isEmpty && (message.text.isEmpty || message.textIsAttachmentPlaceholder)
            || isQuotePlaceholder(message.text, quoted: quote != nil)
        let outgoing = message.senderID == me
        let delivery: Delivery
        if outgoing {
            switch message.status {
            case .sent: delivery = .sent
            case .delivered: delivery = .delivered
            case .read: delivery = .read
            }
        } else {
            delivery = .sent
        }
        return ShownMessage(id: message.id, dialogID: message.dialogID, senderID: message.senderID,
                            senderName: name(of: message.senderID, in: names), text: placeholder ? "" : TerminalText.sanitize(message.text),
                            dateSent: message.dateSent, outgoing: outgoing, delivery: delivery,
                            readByMe: outgoing || message.readIDs.contains(me), attachments: attachments.map(attachment),
                            quote: quote)
    }

    /// An outbox entry: sending while this process has it on the wire (or its files
    /// on the way), failed once tried, else waiting for a connection.
    package static func pending(_ entry: OutboxEntry, me: Int, inFlight: Set<String>) -> ShownMessage {
        let delivery: Delivery
        if inFlight.contains(entry.clientMessageID) {
            delivery = .sending
        } else if let error = entry.lastError {
            delivery = .undelivered(TerminalText.sanitize(error, newlines: .asSpaces))
        } else {
            delivery = .queued
        }
        // Files on their way have no attachment objects yet: shown from what was kept of them.
        let attachments = entry.uploads.isEmpty ? entry.attachments.map(attachment) : entry.uploads.map { upload in
            ShownAttachment(kind: TerminalText.sanitize(upload.type, newlines: .asSpaces),
                            name: TerminalText.sanitize(upload.name, newlines: .asSpaces), size: Int(upload.size),
                            uid: upload.blobUID, localPath: upload.file)
        }
        let quote = entry.customJSON.isEmpty ? nil : quote(QBQuotedMessages(custom: entry.customParameters), names: [:])
        let placeholder = !attachments.isEmpty && entry.text == CachedMessage.attachmentOnlyText
            || isQuotePlaceholder(entry.text, quoted: quote != nil)
        return ShownMessage(id: entry.clientMessageID, dialogID: entry.dialogID, senderID: me, senderName: "you",
                            text: placeholder ? "" : entry.text, dateSent: entry.createdAt, outgoing: true, delivery: delivery,
                            attachments: attachments, quote: quote)
    }

    package static func attachment(_ attachment: QBAttachment) -> ShownAttachment {
        let clean = { (text: String?) in TerminalText.sanitize(text ?? "", newlines: .asSpaces) }
        return ShownAttachment(kind: clean(attachment.type), name: clean(attachment.name), size: attachment.size, uid: attachment.id)
    }

    /// `shownTitle`: the title with the end of the id, when other dialogs share it.
    package static func dialog(_ dialog: CachedDialog, me: Int, names: [Int: String], shownTitle: String? = nil) -> DialogSummary {
        let kind: DialogSummary.Kind
        switch dialog.type {
        case .private: kind = .private
        case .publicGroup: kind = .public
        default: kind = .group
        }
        let last = dialog.lastMessage.map { TerminalText.sanitize($0, newlines: .asSpaces) }
        let title = shownTitle.map { TerminalText.sanitize($0, newlines: .asSpaces) } ?? DialogTitle.of(dialog, me: me, names: names)
        return DialogSummary(id: dialog.id, title: title, kind: kind,
                             unread: dialog.unreadCount, lastMessage: last, lastMessageDate: dialog.lastMessageDateSent,
                             peerID: dialog.type == .private ? dialog.occupantIDs.first { $0 != me } : nil,
                             occupantIDs: dialog.occupantIDs, muted: dialog.muted)
    }

    package static func name(of user: Int, in names: [Int: String]) -> String {
        names[user].map { TerminalText.sanitize($0, newlines: .asSpaces) } ?? "user \(user)"
    }
}
