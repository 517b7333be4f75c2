import MessageCache
import Messaging
import QuickBloxAPI

/// A reply's quote and a forward's origin in text output (`history`, `listen`),
/// from the same reading of the UI Kits' parameters as the chat view
/// (`ChatViewRecords.quote`): `↪ alice: first line…`, `↪ forwarded from alice: first line…`.
package enum QuoteLine {
    /// The most of the original's first line shown.
    static let maximumLength = 60

    /// The line for `message`, nil for one that quotes nothing. Already sanitized.
    package static func of(_ message: CachedMessage, names: [Int: String]) -> String? {
        guard let quote = ChatViewRecords.quote(message.quoted, names: names) else { return nil }
        var first = quote.firstLine
        let cut = first.count > maximumLength || first.count < quote.text.count
        if first.count > maximumLength { first = String(first.prefix(maximumLength - 1)) }
        let more = quote.more > 0 ? " (+\(quote.more) more)" : ""
        let who = quote.action == .forward ? "forwarded from \(quote.senderName)" : quote.senderName
        return "↪ \(who): \(first)\(cut ? "…" : "")\(more)"
    }

    /// The message as `history` and `listen` show it: the quote first, on a line of its
    /// own, then the message's own words (`AttachmentLabel.body`), left out when they are
    /// only the apps' stand-in for none (`[Forwarded_Message]`). Already sanitized.
    package static func body(of message: CachedMessage, names: [Int: String]) -> String {
        let own = AttachmentLabel.body(of: message)
        guard let quote = of(message, names: names) else { return own }
        let placeholder = message.text == QBQuotedMessages.forwardedText || message.text == QBQuotedMessages.repliedText
        return placeholder && message.attachmentsJSON.isEmpty ? quote : quote + "\n" + own
    }
}
