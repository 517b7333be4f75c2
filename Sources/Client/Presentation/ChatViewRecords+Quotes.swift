import ChatView
import MessageCache
import Messaging
import QuickBloxAPI

/// Replies and forwards as the chat view shows them (docs/protocol.md §6): the quoted
/// original's sender and text, made safe for a terminal like everything another user wrote.
extension ChatViewRecords {
    /// The quote of `quoted`: the first original, named by `origin_sender_name`, else as
    /// this user knows its sender.
    package static func quote(_ quoted: QBQuotedMessages?, names: [Int: String]) -> ShownQuote? {
        guard let quoted, let first = quoted.originals.first else { return nil }
        let name = quoted.originSenderName.map { TerminalText.sanitize($0, newlines: .asSpaces) } ?? self.name(of: first.senderID, in: names)
        var text = first.text
        if text.isEmpty || text == CachedMessage.attachmentOnlyText || text == QBQuotedMessages.forwardedText
            || text.hasPrefix("MediaContentEntity|") || text.hasPrefix("[Attachment]|") {
            // The apps' bodies of a message that is only files: shown as the files.
            let labels = first.attachments.map { "[\($0.type ?? "file")] \($0.name ?? "attachment")" }
            text = labels.isEmpty ? text : labels.joined(separator: "\n")
        }
        return ShownQuote(action: quoted.action == .reply ? .reply : .forward, senderName: name,
                          text: TerminalText.sanitize(text), more: quoted.originals.count - 1)
    }

    /// Whether `text` is only the apps' stand-in for a forward or reply without words of its own.
    static func isQuotePlaceholder(_ text: String, quoted: Bool) -> Bool {
        quoted && (text == QBQuotedMessages.forwardedText || text == QBQuotedMessages.repliedText)
    }
}
