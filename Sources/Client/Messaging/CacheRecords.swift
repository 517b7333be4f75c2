#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import MessageCache
import QuickBloxAPI

/// QuickBlox objects as cache rows: typed columns for queries, the object
/// itself as JSON text so `--json` prints what the server sent.
enum CacheRecords {
    static func json(_ object: [String: JSONValue]) -> String { json(JSONValue.object(object)) }

    static func json(_ value: JSONValue) -> String { value.compactText }

    /// Attachment objects as the cache keeps them (`CachedMessage.attachmentsJSON`,
    /// `OutboxEntry.attachmentsJSON`): a JSON array of each as received (or, built
    /// here, in its wire form); `""` for none.
    static func attachmentsJSON(_ attachments: [QBAttachment]) -> String {
        attachments.isEmpty ? "" : json(.array(attachments.map { $0.raw.isEmpty ? $0.json : .object($0.raw) }))
    }

    /// The attachments of `attachmentsJSON`; none for `""` or text that is not a JSON array.
    static func attachments(_ attachmentsJSON: String) -> [QBAttachment] {
        guard !attachmentsJSON.isEmpty,
              let value = try? JSONValue(parsing: attachmentsJSON) else { return [] }
        return QBAttachment.list(from: value)
    }

    /// Custom parameters as the outbox keeps them (`OutboxEntry.customJSON`): a JSON
    /// object of strings; `""` for none.
    static func customJSON(_ custom: [String: String]) -> String {
        custom.isEmpty ? "" : json(custom.mapValues { JSONValue.string($0) })
    }

    /// The parameters of `customJSON`; none for `""` or anything not an object.
    static func custom(_ customJSON: String) -> [String: String] {
        guard !customJSON.isEmpty, let object = (try? JSONValue(parsing: customJSON))?.objectValue else { return [:] }
        return object.compactMapValues { if case .string(let text) = $0 { text } else { nil } }
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
                      deliveredIDs: m.deliveredIds, readIDs: m.readIds, attachmentsJSON: attachmentsJSON(m.attachments))
    }

    static func user(_ u: QBUser) -> CachedUser {
        CachedUser(id: u.id, login: u.login ?? u.email ?? "user\(u.id)", fullName: u.fullName, rawJSON: json(u.raw))
    }
}

extension OutboxEntry {
    /// The attachments its message carries (docs/protocol.md §8); none until its files are all uploaded.
    package var attachments: [QBAttachment] { CacheRecords.attachments(attachmentsJSON) }

    /// The custom parameters it is sent with (a reply's or a forward's).
    package var customParameters: [String: String] { CacheRecords.custom(customJSON) }
}

extension CachedMessage {
    /// The message's attachments (docs/protocol.md §8), read from the cache's copy.
    package var attachments: [QBAttachment] { CacheRecords.attachments(attachmentsJSON) }

    /// Whether the text is only what QuickBlox apps put in a message that is only
    /// attachments (`[attachment]`): shown as the attachments alone.
    package var textIsAttachmentPlaceholder: Bool {
        !attachmentsJSON.isEmpty && text.split(whereSeparator: \.isWhitespace) == [Substring(Self.attachmentOnlyText)]
    }

    /// Whether `text` holds `part`, byte for byte (`String.contains` compares
    /// characters: a tenth of `listen`'s time, for every message it answers).
    static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first, haystack.count >= needle.count else { return needle.isEmpty }
                var start = 0
                while start + needle.count <= haystack.count {
                    guard let found = haystack[start...].firstIndex(of: first), found + needle.count <= haystack.count else {
                        return false
                    }
                    if memcmp(haystack.baseAddress! + found, needle.baseAddress!, needle.count) == 0 { return true }
                    start = found + 1
                }
                return false
            }
        }
    }

    /// Whether the sender asked for chat markers (`markable` in the message object).
    package var isMarkable: Bool {
        // The cache's JSON is its own compact encoding, so the usual answers need no
        // parsing: inside a string a quote is escaped, so `,"markable":1` is a key.
        guard Self.contains(rawJSON, "\"markable\"") else { return false }
        for start in [",", "{"] where ["1,", "1}"].contains(where: { Self.contains(rawJSON, start + "\"markable\":" + $0) }) {
            return true
        }
        guard let object = try? JSONValue(parsing: rawJSON) else { return false }
        return QBMessage(json: object, dialogId: dialogID)?.isMarkable ?? false
    }
}
