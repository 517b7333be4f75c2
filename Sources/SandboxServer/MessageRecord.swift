/// One attachment of a message (docs/protocol.md §6); every field optional but `type`.
struct MessageAttachment: Equatable {
    /// Keys in the protocol's order: type, id, name, size, url, content-type.
    static let keys = ["type", "id", "name", "size", "url", "content-type"]
    var fields: [(String, String)]

    static func == (a: MessageAttachment, b: MessageAttachment) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0 == $1 }
    }

    /// The blob it refers to: its `id` (a blob uid), when there is one.
    var blobUID: String? { fields.first { $0.0 == "id" }.flatMap { $0.1.isEmpty ? nil : $0.1 } }

    var json: JSONNode {
        .object(fields.map { key, value in
            (key, key == "size" && Int(value) != nil ? .number(value) : .string(value))
        })
    }

    /// `<attachment type= id= .../>` in `extraParams` (keys that are no XML name are left out).
    var xml: String {
        "<attachment" + fields.filter { XMLEscaping.isName($0.0) }.map { " \($0.0)='\(XMLEscaping.attribute($0.1))'" }.joined() + "/>"
    }
}

/// A stored chat message.
struct MessageRecord {
    var id: String
    var dialogId: String
    var body: String
    var senderId: Int
    /// The other occupant in a private dialog; 0 in groups.
    var recipientId: Int
    var dateSent: Int
    var readIds: [Int]
    var deliveredIds: [Int]
    var attachments: [MessageAttachment]
    var markable: Bool
    /// Custom keys kept as sent (top level in REST, `extraParams` children over XMPP).
    var custom: [(String, String)]
    var createdAt: Double
    var updatedAt: Double
    /// The id its sender gave it over XMPP, when it is stored under another (not in REST's object).
    var originId: String? = nil

    /// The message object with the protocol's key names; custom keys at top level.
    var json: JSONNode {
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
struct NewMessage {
    /// The stanza id when sent over XMPP (kept when it is 24 hex); nil: generate one.
    var id: String?
    /// The sender's own id for it (XEP-0359 origin-id, else the stanza id); kept when the
    /// message is stored under another.
    var originId: String? = nil
    var dialogId: String
    var body: String
    var senderId: Int
    var attachments: [MessageAttachment] = []
    var markable = false
    var custom: [(String, String)] = []
}

/// Of a stored message, what never changes and all a chat marker needs: who sent it, in which
/// dialog, under which id of their own (when it is stored under another).
struct MessageOrigin: Equatable {
    let id: String
    let senderId: Int
    let dialogId: String
    let originId: String?
}
