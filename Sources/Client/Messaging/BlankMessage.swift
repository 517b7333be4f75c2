import MessageCache

/// A message with nothing to read: empty, or only spaces and line breaks. Refused before
/// any request on every way of sending; the server would store it or answer
/// 422, and neither is what a person meant.
package enum BlankMessage {
    package static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }

    /// An outbox entry with no words and no files (queued by an older chatctl, which did not refuse one).
    package static func isBlank(_ entry: OutboxEntry) -> Bool {
        isBlank(entry.text) && entry.attachmentsJSON.isEmpty && entry.uploads.isEmpty
    }
}
