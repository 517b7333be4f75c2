import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport
import ChatIdentifiers

/// Edits and deletes of our own messages from the chat view (docs/protocol.md §6, "Edits
/// and deletes"): made over REST, as the UI Kits make them, then told to the dialog's
/// other occupants live, as XEP-0308 corrections and XEP-0424 retractions, which a
/// client that knows neither shows as a new message or ignores; and corrections and
/// retractions heard from others, applied when they come from the message's sender.
extension ChatEngine {
    func edit(_ id: String, dialogID: DialogID, text: String) {
        let edited: CachedMessage
        do { edited = try service.editMessage(id: id, dialogID: dialogID, text: text) } catch {
            return emit(.notice(.failed(.edit, error)))
        }
        emit(.edited([edited]))
        tell(dialogID, ChatCorrection.replace(id: id, text: text))
    }

    func delete(_ id: String, dialogID: DialogID) {
        do { try service.deleteMessage(id: id, everyone: true) } catch {
            return emit(.notice(.failed(.delete, error)))
        }
        emit(.removed(dialogID: dialogID, ids: [id]))
        tell(dialogID, ChatCorrection.retract(id: id))
    }

    /// Sends a correction to the dialog (not stored: history has the change already).
    private func tell(_ dialogID: DialogID, _ correction: ChatCorrection) {
        guard connected, let dialog = try? dialog(dialogID), let (to, kind) = try? link.address(of: dialog) else { return }
        do { try link.send(correction: correction, to: to, kind: kind, dialogID: dialogID) } catch {
            emit(.notice(.failed(.send, Failure(describing: error))))
        }
    }

    /// A correction heard: applied to the cached message when its sender sent it.
    func receive(_ correction: ChatCorrection, from sender: Int?, dialogID: DialogID?) {
        guard let sender, let cached = try? service.cache.message(id: correction.messageID), cached.senderID == sender,
              dialogID == nil || dialogID == cached.dialogID else { return }
        switch correction {
        case .replace(_, let text):
            var changed = cached
            changed.text = text
            changed.rawJSON = CachedMessage.replacingText(in: cached.rawJSON, with: text)
            guard (try? service.cache.upsertMessages([changed])) != nil else { return }
            emit(.edited([changed]))
        case .retract:
            _ = try? service.cache.removeMessages(ids: [cached.id])
            emit(.removed(dialogID: cached.dialogID, ids: [cached.id]))
        }
    }
}

extension CachedMessage {
    /// The cached object with `message` replaced (a correction heard; other keys as they were).
    static func replacingText(in rawJSON: String, with text: String) -> String {
        guard var members = (try? JSONValue(parsing: rawJSON))?.objectValue else { return rawJSON }
        members["message"] = .string(text)
        return CacheRecords.json(members)
    }
}
