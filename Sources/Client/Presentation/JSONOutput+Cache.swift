#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import Messaging
import QuickBloxAPI

extension JSONOutput {
    /// A JSON array of objects that are already JSON text (the raw QuickBlox
    /// objects kept in the cache), on one line.
    package static func array(ofRaw objects: [String]) -> String {
        "[" + objects.joined(separator: ",") + "]\n"
    }

    /// A cached message as `--json` shows it: the object the server sent; for
    /// one's own message also `status` (sent, delivered, read) and the
    /// `delivered_ids`/`read_ids` as the server gave them, updated by markers
    /// (docs/protocol.md §7); `attachments` always an array, each attachment with
    /// the keys the sender gave it and the normalised `type`, `id`, `name`, `size`,
    /// `content_type`, `url` (§8). `extra` adds keys (a search's snippet).
    package static func message(_ message: CachedMessage, me: Int, extra: [String: JSONValue] = [:]) -> String {
        let mine = message.senderID == me
        let attachments = message.attachments
        guard mine || !extra.isEmpty || !attachments.isEmpty, var object = object(message.rawJSON) else { return message.rawJSON }
        if !attachments.isEmpty { object["attachments"] = .array(attachments.map(\.normalizedJSON)) }
        if mine {
            object["status"] = .string(message.status.rawValue)
            object["delivered_ids"] = .array(message.deliveredIDs.map(JSONValue.int))
            object["read_ids"] = .array(message.readIDs.map(JSONValue.int))
        }
        for (key, value) in extra { object[key] = value }
        return text(.object(object))
    }

    /// A cached dialog as `--json` shows it: the server's object, with
    /// `unread_messages_count` from `GET /chat/Message/unread.json` when that was asked,
    /// `muted` (true or false), the cache's flag (docs/protocol.md §5, "Notification settings"),
    /// and `muted_until`, when a mute for a while ends (Unix seconds, else null).
    /// `blocked`, when given: whether the user blocks the other person of a private dialog
    /// (`dialogs --json`; false for a group), added as `"blocked"`.
    package static func dialog(_ dialog: CachedDialog, blocked: Bool? = nil) -> String {
        let raw = dialog.rawJSON
        guard var object = object(raw) else { return raw }
        let until = dialog.mutedUntil.map(String.init) ?? "null"
        if object["unread_messages_count"]?.intValue == dialog.unreadCount, object["muted"] == nil, object["blocked"] == nil,
           let close = raw.lastIndex(of: "}") {
            // The server's text as it was (never empty: it has the count), our members added at its end.
            let block = blocked.map { #","blocked":\#($0)"# } ?? ""
            return raw[..<close] + #","muted":\#(dialog.muted),"muted_until":\#(until)"# + block + raw[close...]
        }
        object["unread_messages_count"] = .int(dialog.unreadCount)
        object["muted"] = .bool(dialog.muted)
        object["muted_until"] = dialog.mutedUntil.map(JSONValue.int) ?? .null
        if let blocked { object["blocked"] = .bool(blocked) }
        return text(.object(object))
    }

    private static func object(_ json: String) -> [String: JSONValue]? {
        guard case .object(let object)? = try? JSONValue(parsing: json) else { return nil }
        return object
    }
}
