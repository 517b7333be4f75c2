import XMPPTransport

/// Another user's text made inert in HTML: terminal control characters and bidi
/// overrides removed (`TerminalText`), then `& < > " '` as character references, so
/// it is text in an element or a quoted attribute and never markup.
package enum HTMLText {
    /// Text for an element or a quoted attribute; line breaks kept (`newlines`).
    package static func escape(_ text: String, newlines: TerminalText.Newlines = .kept) -> String {
        MarkupEscaper.html.escaping(TerminalText.sanitize(text, newlines: newlines))
    }
}
