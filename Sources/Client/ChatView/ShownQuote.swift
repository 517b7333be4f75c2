/// What a reply or a forward quotes, as its cell shows it above the text: who wrote the
/// original and its text (already safe for a terminal, newlines kept; the cell shows the
/// first lines). One per message: a forward of several shows the first and how many more.
package struct ShownQuote: Hashable, Sendable {
    package enum Action: Hashable, Sendable { case reply, forward }

    package var action: Action
    package var senderName: String
    /// The original's text; for one that is only attachments, their labels.
    package var text: String
    /// Further originals forwarded with the first.
    package var more: Int

    package init(action: Action, senderName: String, text: String, more: Int = 0) {
        self.action = action; self.senderName = senderName; self.text = text; self.more = more
    }

    /// The quote's first line, cut to a line: `replying to` banners and short forms.
    package var firstLine: String {
        String(text.prefix { $0 != "\n" })
    }
}
