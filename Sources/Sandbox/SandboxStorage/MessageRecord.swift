import SandboxClock
import SandboxJSON

/// One attachment of a message (docs/protocol.md §6); every field optional but `type`.
package struct MessageAttachment: Equatable {
    /// Keys in the protocol's order: type, id, name, size, url, content-type.
    package static let keys = ["type", "id", "name", "size", "url", "content-type"]
    package var fields: [(String, String)]

    package init(fields: [(String, String)]) { self.fields = fields }

    package static func == (a: MessageAttachment, b: MessageAttachment) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0 == $1 }
    }

    /// The blob it refers to: its `id` (a blob uid), when there is one.
    package var blobUID: String? { fields.first { $0.0 == "id" }.flatMap { $0.1.isEmpty ? nil : $0.1 } }

    package var json: JSONNode {
        .object(fields.map { key, value in
            (key, key == "size" && Int(value) != nil ? .number(value) : .string(value))
        })
    }
}

/// A stored chat message.
package struct MessageRecord {
    package var id: String
    package var dialogId: String
    package var body: String
    package var senderId: Int
    /// The other occupant in a private dialog; 0 in groups.
    package var recipientId: Int
    package var dateSent: Int
    package var readIds: [Int]
    package var deliveredIds: [Int]
    package var attachments: [MessageAttachment]
    package var markable: Bool
    /// Custom keys kept as sent (top level in REST, `extraParams` children over XMPP).
    package var custom: [(String, String)]
    package var createdAt: Double
    package var updatedAt: Double
    /// The id its sender gave it over XMPP, when it is stored under another (not in REST's object).
    package var originId: String? = nil

    /// The message object with the protocol's key names; custom keys at top level.
    package var json: JSONNode {
        var members: [(String, JSONNode)] = [
            ("_id", .string(id)),
            ("chat_dialog_id", .string(dialogId)),
            ("message", .string(body)),
            ("sender_id", .int(senderId)),
            ("recipient_id", .int(recipientId)),
            ("date_sent", .int(dateSent)),
            ("read_ids", .array(readIds.map { .int($0) })),
            ("delivered_ids", .array(deliveredIds.map { .int($0) })),
            ("attachments", .array(attachments.map(\.json))),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
        ]
        if markable { members.append(("markable", .int(1))) }
        let taken = Set(members.map(\.0))
        members += custom.filter { !taken.contains($0.0) }.map { ($0.0, .string($0.1)) }
        return .object(members)
    }
}

/// What a sender supplies; the store assigns the rest.
package struct NewMessage {
    /// The stanza id when sent over XMPP (kept when it is 24 hex); nil: generate one.
    package var id: String?
    /// The sender's own id for it (XEP-0359 origin-id, else the stanza id); kept when the
    /// message is stored under another.
    package var originId: String? = nil
    package var dialogId: String
    package var body: String
    package var senderId: Int
    package var attachments: [MessageAttachment] = []
    package var markable = false
    package var custom: [(String, String)] = []
    /// The sending client's `date_sent`, kept as the service keeps it; nil: the server's clock.
    package var dateSent: Int?

    package init(id: String?, originId: String? = nil, dialogId: String, body: String, senderId: Int,
                 attachments: [MessageAttachment] = [], markable: Bool = false, custom: [(String, String)] = [],
                 dateSent: Int? = nil) {
        self.id = id
        self.originId = originId
        self.dialogId = dialogId
        self.body = body
        self.senderId = senderId
        self.attachments = attachments
        self.markable = markable
        self.custom = custom
        self.dateSent = dateSent
    }
}

/// Of a stored message, what never changes and all a chat marker needs: who sent it, in which
/// dialog, under which id of their own (when it is stored under another).
package struct MessageOrigin: Equatable {
    package let id: String
    package let senderId: Int
    package let dialogId: String
    package let originId: String?
}
