#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import QuickBloxAPI

extension CachedMessage {
    /// The attachments of the message as the server sent it, read from its raw
    /// JSON (array or object keyed "0", "1", … as `QBMessage` reads them). One
    /// place to change once the cache keeps attachments itself.
    var attachments: [QBAttachment] {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(rawJSON.utf8)) else { return [] }
        return QBMessage(json: json, dialogId: dialogID)?.attachments ?? []
    }
}
