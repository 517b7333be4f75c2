import MessageCache
import Messaging
import QuickBloxAPI
import ChatIdentifiers

/// One message as an export writes it: the cached message, its sender's name, the
/// quote of a reply or forward, and where each attachment's bytes went. Everything
/// here is raw (as another user wrote it): each writer escapes it for its format.
package struct ExportedMessage {
    package var message: CachedMessage
    package var senderName: String
    package var mine: Bool
    /// The text to show: empty when it was only the apps' stand-in (`[attachment]`,
    /// `[Forwarded_Message]`) for what the attachments or the quote show.
    package var text: String
    package var quote: Quote?
    package var attachments: [ExportedAttachment]

    /// The first original of a reply or a forward (docs/protocol.md §6).
    package struct Quote: Equatable {
        package var action: QBQuotedMessages.Action
        package var senderName: String
        package var text: String
        /// Originals after the first, not shown.
        package var more: Int
    }

    /// `names`: display names of the sender and of the quoted messages' senders.
    package init(_ message: CachedMessage, me: Int, names: [Int: String], attachments: [ExportedAttachment]) {
        self.message = message
        mine = message.senderID == me
        senderName = names[message.senderID] ?? "user \(message.senderID)"
        self.attachments = attachments
        let quoted = message.quoted
        quote = quoted.flatMap { Self.quote($0, names: names) }
        var text = message.text
        if quoted != nil && (text == QBQuotedMessages.forwardedText || text == QBQuotedMessages.repliedText) { text = "" }
        if !message.attachmentsJSON.isEmpty && message.textIsAttachmentPlaceholder { text = "" }
        self.text = text
    }

    /// The ids whose names `init` looks up: the sender's and the quoted originals' senders.
    package static func senderIDs(of message: CachedMessage) -> [Int] {
        guard let quoted = message.quoted else { return [message.senderID] }
        return [message.senderID] + quoted.originals.map(\.senderID)
    }

    private static func quote(_ quoted: QBQuotedMessages, names: [Int: String]) -> Quote? {
        guard let first = quoted.originals.first else { return nil }
        let name = quoted.originSenderName ?? names[first.senderID] ?? "user \(first.senderID)"
        var text = first.text
        if text.isEmpty || text == CachedMessage.attachmentOnlyText || text == QBQuotedMessages.forwardedText {
            text = first.attachments.map(AttachmentLabel.label).joined(separator: " ")
        }
        return Quote(action: quoted.action, senderName: name, text: text, more: quoted.originals.count - 1)
    }
}

/// An attachment of an exported message and what the export did with its file.
package struct ExportedAttachment {
    package var attachment: QBAttachment
    /// The file saved beside the export (`--attachments DIR`), as a link from the
    /// export's own directory: relative, `/`-separated, not yet percent-encoded.
    package var savedPath: String?
    /// An image's bytes for a `data:` URI (HTML only, up to the inline limit).
    package var inline: Inline?
    /// Why the file is not there, when it is not (not asked for, too large, failed).
    package var note: String?

    package struct Inline {
        /// A checked `type/subtype` (`InlineImage.mediaType`).
        package var mediaType: String
        package var base64: String
        package init(mediaType: String, base64: String) { self.mediaType = mediaType; self.base64 = base64 }
    }

    package init(_ attachment: QBAttachment, savedPath: String? = nil, inline: Inline? = nil, note: String? = nil) {
        self.attachment = attachment; self.savedPath = savedPath; self.inline = inline; self.note = note
    }

    /// The name to show: the sender's, else the uid, else a placeholder.
    package var shownName: String { attachment.name.flatMap { $0.isEmpty ? nil : $0 } ?? attachment.id ?? "attachment" }

    /// An image's media type fit for a `data:` URI: the attachment's content type when
    /// it is `image/…` made of token characters only (it is another user's text).
    package static func imageMediaType(_ attachment: QBAttachment) -> String? {
        guard let type = attachment.contentType?.lowercased().split(separator: ";").first.map(String.init),
              type.hasPrefix("image/"), type.count > 6, type.count < 64,
              type.utf8.allSatisfy({ isToken($0) || $0 == UInt8(ascii: "/") }),
              type.utf8.filter({ $0 == UInt8(ascii: "/") }).count == 1 else { return nil }
        return type
    }

    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
    }
}

/// What an export's document says about itself at its top.
package struct ExportHeader {
    /// The dialog's title (`DialogTitle`), raw.
    package var title: String
    package var dialogID: DialogID
    /// `private`, `group`, `public`.
    package var dialogType: String
    /// Who exported it (display name), raw.
    package var exportedBy: String
    package var exportedAt: Int
    package var since: Int?
    package var before: Int?
    /// Whether attachments were saved beside the export (`--attachments DIR`).
    package var attachmentsSaved: Bool

    package init(title: String, dialogID: DialogID, dialogType: String, exportedBy: String, exportedAt: Int,
                 since: Int? = nil, before: Int? = nil, attachmentsSaved: Bool = false) {
        self.title = title; self.dialogID = dialogID; self.dialogType = dialogType; self.exportedBy = exportedBy
        self.exportedAt = exportedAt; self.since = since; self.before = before; self.attachmentsSaved = attachmentsSaved
    }
}
