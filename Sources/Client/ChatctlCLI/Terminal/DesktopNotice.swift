import MessageCache
import Presentation
import XMPPTransport

/// One desktop notification of a message, as `listen --notify` posts it: the title is the
/// sender and, in a group, the dialog (`alice · ops`); the body the message's first lines.
/// Everything in it is another user's word: made inert (no control character or escape
/// sequence), and escaped for the spec's markup subset (`<b>`, `<i>`, `<u>`, `<a>`, `<img>`,
/// entities) when the service reads the body as markup, so that no text becomes a link or an image.
struct DesktopNotice: Equatable {
    var title: String
    var body: String

    /// The spec's category for a message received by an instant messenger.
    static let category = "im.received"
    static let maximumLines = 4
    static let maximumCharacters = 300

    init(title: String, body: String) { self.title = title; self.body = body }

    /// `dialogTitle` as `DialogTitle.of` makes it; a private dialog's is the sender's name, said once.
    init(_ message: CachedMessage, sender: String, dialogTitle: String, isPrivate: Bool, bodyMarkup: Bool) {
        let sender = TerminalText.sanitize(sender, newlines: .asSpaces)
        let dialog = TerminalText.sanitize(dialogTitle, newlines: .asSpaces)
        title = Self.limited(isPrivate || dialog.isEmpty ? sender : "\(sender) · \(dialog)", to: 120)
        let lines = AttachmentLabel.body(of: message).split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        var text = lines.prefix(Self.maximumLines).joined(separator: "\n")
        if lines.count > Self.maximumLines { text += "\n…" }
        text = Self.limited(text, to: Self.maximumCharacters)
        body = bodyMarkup ? MarkupEscaper.notificationBody.escaping(text) : text
    }

    private static func limited(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    func trimmingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
