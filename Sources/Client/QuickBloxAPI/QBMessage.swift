#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers

/// A stored chat message (docs/protocol.md §6): the fields typed, every field as
/// received in `raw` (custom keys sit at the top level, see `customParameters`).
package struct QBMessage: Sendable, Equatable {
    /// `_id`, 24 hex digits; equals the XMPP stanza id when sent over chat.
    package var id: String
    package var chatDialogId: DialogID
    /// The text; nil for an attachment-only message.
    package var message: String?
    /// `sender_id`; 0 when the server omitted it.
    package var senderId: Int
    /// `recipient_id`: the peer in a private dialog, 0 in groups, nil when absent.
    package var recipientId: Int?
    /// `date_sent`, unix seconds (fractions dropped); `created_at` when absent, else 0.
    package var dateSent: Int
    package var readIds: [Int]
    package var deliveredIds: [Int]
    package var attachments: [QBAttachment]
    package var createdAt: Date?
    package var updatedAt: Date?
    /// The message object exactly as received (for `--json`).
    package var raw: [String: JSONValue]

    package init(id: String, chatDialogId: DialogID, message: String? = nil, senderId: Int, recipientId: Int? = nil,
                dateSent: Int, readIds: [Int] = [], deliveredIds: [Int] = [], attachments: [QBAttachment] = [],
                createdAt: Date? = nil, updatedAt: Date? = nil, raw: [String: JSONValue] = [:]) {
        self.id = id; self.chatDialogId = chatDialogId; self.message = message; self.senderId = senderId
        self.recipientId = recipientId; self.dateSent = dateSent; self.readIds = readIds
        self.deliveredIds = deliveredIds; self.attachments = attachments; self.createdAt = createdAt
        self.updatedAt = updatedAt; self.raw = raw
    }

    /// From a message object; nil without an `_id`, or without a `chat_dialog_id` when
    /// no `dialogId` is given to fall back on.
    package init?(json: JSONValue, dialogId: DialogID? = nil) {
        guard let members = json.objectValue,
              let id = (json["_id"] ?? json["id"])?.looseString, !id.isEmpty,
              let chatDialogId = json["chat_dialog_id"]?.looseString.map { DialogID($0) } ?? dialogId
        else { return nil }
        let createdAt = json["created_at"]?.looseDate
        let dateSent = json["date_sent"]?.looseUnixSeconds
            ?? createdAt.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        self.init(id: id, chatDialogId: chatDialogId,
                  message: json["message"]?.looseString,
                  senderId: json["sender_id"]?.looseInt ?? 0,
                  recipientId: json["recipient_id"]?.looseInt,
                  dateSent: dateSent,
                  readIds: json["read_ids"]?.looseIntList ?? [],
                  deliveredIds: json["delivered_ids"]?.looseIntList ?? [],
                  attachments: QBAttachment.list(from: json["attachments"]),
                  createdAt: createdAt,
                  updatedAt: json["updated_at"]?.looseDate,
                  raw: members)
    }

    /// Keys of the protocol itself; everything else at the top level is a custom parameter.
    static let protocolKeys: Set<String> = [
        "_id", "id", "chat_dialog_id", "message", "sender_id", "recipient_id", "date_sent", "read_ids",
        "delivered_ids", "attachments", "created_at", "updated_at", "read", "markable", "send_to_chat",
        "save_to_history",
    ]

    /// The sender asked for chat markers: `markable` is `1` or `true` (as a number,
    /// a string or a boolean).
    package var isMarkable: Bool {
        switch raw["markable"] {
        case .bool(let value)?: return value
        case .string(let text)? where text.trimmingScalars(" \t\r\n").lowercased() == "true": return true
        case let value?: return value.looseInt == 1
        case nil: return false
        }
    }

    /// The custom top-level keys a sender added (e.g. `"priority":"high"`).
    package var customParameters: [String: JSONValue] {
        raw.filter { !Self.protocolKeys.contains($0.key) }
    }
}
