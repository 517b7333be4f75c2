#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers

/// A chat dialog (docs/protocol.md §5): the fields typed, every field as received in `raw`.
package struct QBDialog: Sendable, Equatable {
    /// `_id`, 24 hex digits.
    package var id: DialogID
    package var type: QBDialogType
    package var name: String?
    package var photo: String?
    /// `user_id`: the owner.
    package var userId: Int?
    /// `occupants_ids`.
    package var occupantIDs: [Int]
    /// `xmpp_room_jid`; nil for a private dialog.
    package var xmppRoomJID: String?
    package var lastMessage: String?
    /// `last_message_date_sent`, unix seconds; nil for a dialog without messages.
    package var lastMessageDateSent: Int?
    package var lastMessageId: String?
    package var lastMessageUserId: Int?
    /// `unread_messages_count`; 0 when absent.
    package var unreadMessagesCount: Int
    package var createdAt: Date?
    package var updatedAt: Date?
    /// The dialog object exactly as received (for `--json`).
    package var raw: [String: JSONValue]

    package init(id: DialogID, type: QBDialogType, name: String? = nil, photo: String? = nil, userId: Int? = nil,
                occupantIDs: [Int] = [], xmppRoomJID: String? = nil, lastMessage: String? = nil,
                lastMessageDateSent: Int? = nil, lastMessageId: String? = nil, lastMessageUserId: Int? = nil,
                unreadMessagesCount: Int = 0, createdAt: Date? = nil, updatedAt: Date? = nil,
                raw: [String: JSONValue] = [:]) {
        self.id = id; self.type = type; self.name = name; self.photo = photo; self.userId = userId
        self.occupantIDs = occupantIDs; self.xmppRoomJID = xmppRoomJID; self.lastMessage = lastMessage
        self.lastMessageDateSent = lastMessageDateSent; self.lastMessageId = lastMessageId
        self.lastMessageUserId = lastMessageUserId; self.unreadMessagesCount = unreadMessagesCount
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.raw = raw
    }

    /// From a dialog object; nil without an `_id` or an integer `type`. Numbers may
    /// come as strings, `occupants_ids` as an array or a comma-separated string.
    package init?(json: JSONValue) {
        guard let members = json.objectValue,
              let id = (json["_id"] ?? json["id"])?.looseString, !id.isEmpty,
              let type = json["type"]?.looseInt
        else { return nil }
        self.init(id: DialogID(id), type: QBDialogType(rawValue: type),
                  name: json["name"]?.looseString,
                  photo: json["photo"]?.looseString,
                  userId: json["user_id"]?.looseInt,
                  occupantIDs: json["occupants_ids"]?.looseIntList ?? [],
                  xmppRoomJID: json["xmpp_room_jid"]?.looseString,
                  lastMessage: json["last_message"]?.looseString,
                  lastMessageDateSent: json["last_message_date_sent"]?.looseUnixSeconds,
                  lastMessageId: json["last_message_id"]?.looseString,
                  lastMessageUserId: json["last_message_user_id"]?.looseInt,
                  unreadMessagesCount: json["unread_messages_count"]?.looseInt ?? 0,
                  createdAt: json["created_at"]?.looseDate,
                  updatedAt: json["updated_at"]?.looseDate,
                  raw: members)
    }
}
