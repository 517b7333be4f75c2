import ChatView
import MessageCache
import Messaging
import QuickBloxAPI

/// How attachments read in `history`, `listen` and `search` (docs/protocol.md §8):
/// `[image cat.jpg 1.2 MB]` per attachment (its type, its name, its size; what is
/// unknown left out) after the text, or instead of it when the text is empty or only
/// the `[attachment]` the apps send. Types and names are another user's words:
/// sanitized like the text.
package enum AttachmentLabel {
    /// `[image cat.jpg 1.2 MB]`.
    package static func label(_ attachment: QBAttachment) -> String {
        var parts = [clean(attachment.type).flatMap { $0.isEmpty ? nil : $0 } ?? "attachment"]
        if let name = clean(attachment.name), !name.isEmpty { parts.append(name) }
        if let size = attachment.size { parts.append(byteCount(size)) }
        return "[" + parts.joined(separator: " ") + "]"
    }

    /// The message as a person reads it, already sanitized: its text, its attachments
    /// after it, or the attachments alone. `text` replaces the message's own (a search
    /// snippet, sanitized by the caller).
    package static func body(of message: CachedMessage, text: String? = nil) -> String {
        let shown = text ?? TerminalText.sanitize(message.text)
        guard !message.attachmentsJSON.isEmpty else { return shown }
        let labels = message.attachments.map(label).joined(separator: " ")
        if labels.isEmpty { return shown }
        if message.text.isEmpty || message.textIsAttachmentPlaceholder { return labels }
        return shown + " " + labels
    }

    /// Bytes in binary units as file managers show them: `512 B`, `9.5 KB`, `1.2 MB`, `340 MB`.
    package static func byteCount(_ bytes: Int) -> String { ByteCount.format(bytes) }

    /// One line, no control sequences, no surrounding blanks.
    private static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let inert = TerminalText.sanitize(text, newlines: .asSpaces)
        return inert.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
