import SandboxClock
import SandboxJSON

/// A stored dialog, as one user sees it (`unreadCount` is that user's).
package struct DialogRecord {
    package var id: String
    package var type: DialogKind
    package var name: String?
    package var photo: String?
    package var ownerId: Int
    package var occupantIds: [Int]
    package var lastMessage: String?
    package var lastMessageDateSent: Int?
    package var lastMessageId: String?
    package var lastMessageUserId: Int?
    package var unreadCount: Int
    package var createdAt: Double
    package var updatedAt: Double

    /// `{appId}_{dialogId}@muc.{domain}` for groups, nil for private dialogs.
    package func roomJID(applicationId: Int, chatDomain: String) -> String? {
        type.isGroup ? "\(applicationId)_\(id)@muc.\(chatDomain)" : nil
    }

    /// The other occupant of a private dialog.
    package func peer(of userId: Int) -> Int? {
        guard type == .privateChat else { return nil }
        return occupantIds.first { $0 != userId }
    }

    /// Everyone may read and write a public group; other dialogs are for their occupants.
    package func admits(_ userId: Int) -> Bool { type == .publicGroup || occupantIds.contains(userId) }

    /// The dialog object with the protocol's key names.
    package func json(applicationId: Int, chatDomain: String) -> JSONNode {
        .object([
            ("_id", .string(id)),
            ("type", .int(type.rawValue)),
            ("name", .optionalString(name)),
            ("photo", .optionalString(photo)),
            ("user_id", .int(ownerId)),
            ("occupants_ids", .array(occupantIds.map { .int($0) })),
            ("xmpp_room_jid", .optionalString(roomJID(applicationId: applicationId, chatDomain: chatDomain))),
            ("last_message", .optionalString(lastMessage)),
            ("last_message_date_sent", .optionalInt(lastMessageDateSent)),
            ("last_message_id", .optionalString(lastMessageId)),
            ("last_message_user_id", .optionalInt(lastMessageUserId)),
            ("unread_messages_count", .int(unreadCount)),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
        ])
    }
}
