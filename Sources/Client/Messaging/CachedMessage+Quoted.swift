import MessageCache
import QuickBloxAPI

/// Replies and forwards (docs/protocol.md §6, "Replies and forwards"): the quoted
/// originals a cached message carries, and the custom parameters that quote one.
extension CachedMessage {
    /// The originals this message replies to or forwards, as the UI Kits encode them;
    /// nil for a plain message (most: found without parsing the JSON).
    package var quoted: QBQuotedMessages? {
        guard Self.contains(rawJSON, QBQuotedMessages.originalMessagesKey),
              let members = (try? JSONValue(parsing: rawJSON))?.objectValue else { return nil }
        return QBQuotedMessages(custom: members)
    }
}

extension MessagingService {
    /// The custom parameters of a reply to, or a forward of, the cached message `id`, in
    /// the UI Kits' shape: the original as its object, its sender's name as this user
    /// knows it. Nil when the cache does not have the message.
    package func quoting(_ id: String, as action: QBQuotedMessages.Action) -> [String: String]? {
        guard let cached = try? cache.message(id: id) else { return nil }
        let original: QBQuotedMessages.Original
        if let object = try? JSONValue(parsing: cached.rawJSON), let message = QBMessage(json: object, dialogId: cached.dialogID) {
            original = QBQuotedMessages.Original(message)
        } else {
            original = QBQuotedMessages.Original(id: cached.id, dialogID: cached.dialogID, text: cached.text,
                                                 senderID: cached.senderID, dateSent: cached.dateSent)
        }
        let name = displayNames([cached.senderID])[cached.senderID]
        return QBQuotedMessages(action: action, originSenderName: name, originals: [original]).customParameters
    }
}
