#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import QuickBloxAPI

/// QuickBlox objects as cache rows: typed columns for queries, the object
/// itself as JSON text so `--json` prints what the server sent.
enum CacheRecords {
    static func json(_ object: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONValue.object(object)) else { preconditionFailure("JSONValue failed to encode") }
        return String(decoding: data, as: UTF8.self)
    }

    static func dialog(_ d: QBDialog) -> CachedDialog {
        CachedDialog(id: d.id, type: DialogType(rawValue: d.type.rawValue), name: d.name ?? "",
                     occupantIDs: d.occupantIDs, lastMessage: d.lastMessage, lastMessageDateSent: d.lastMessageDateSent,
                     unreadCount: d.unreadMessagesCount,
                     updatedAt: Int(d.updatedAt?.timeIntervalSince1970 ?? 0), rawJSON: json(d.raw))
    }

    static func message(_ m: QBMessage) -> CachedMessage {
        CachedMessage(id: m.id, dialogID: m.chatDialogId, senderID: m.senderId, recipientID: m.recipientId ?? 0,
                      dateSent: m.dateSent, text: m.message ?? "", rawJSON: json(m.raw),
                      deliveredIDs: m.deliveredIds, readIDs: m.readIds)
    }

    static func user(_ u: QBUser) -> CachedUser {
        CachedUser(id: u.id, login: u.login ?? u.email ?? "user\(u.id)", fullName: u.fullName, rawJSON: json(u.raw))
    }
}

extension CachedMessage {
    /// Whether the sender asked for chat markers (`markable` in the message object).
    public var isMarkable: Bool {
        // The cache's JSON is its own compact encoding, so the usual answers need no
        // parsing: inside a string a quote is escaped, so `,"markable":1` is a key.
        guard rawJSON.contains("\"markable\"") else { return false }
        for start in [",", "{"] where ["1,", "1}"].contains(where: { rawJSON.contains(start + "\"markable\":" + $0) }) {
            return true
        }
        guard let object = try? JSONDecoder().decode(JSONValue.self, from: Data(rawJSON.utf8)) else { return false }
        return QBMessage(json: object, dialogId: dialogID)?.isMarkable ?? false
    }
}
