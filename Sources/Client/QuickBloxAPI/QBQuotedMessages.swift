import ChatIdentifiers

/// A reply or a forward as QuickBlox's UI Kits (iOS, Android, React) mark one
/// (docs/protocol.md §6, "Replies and forwards"): three custom parameters beside the
/// message's own text, in REST custom fields and XMPP `extraParams` alike:
/// `qb_message_action` (`reply` or `forward`), `origin_sender_name` (the first
/// original's sender) and `qb_original_messages`, a JSON array of the original
/// message objects carried as one string.
package struct QBQuotedMessages: Sendable, Equatable {
    package enum Action: String, Sendable, Equatable {
        case reply, forward
    }

    /// One original message as the array carries it.
    package struct Original: Sendable, Equatable {
        package var id: String
        package var dialogID: DialogID
        package var text: String
        package var senderID: Int
        /// Unix seconds (the UI Kits write milliseconds, Android seconds: both are read).
        package var dateSent: Int
        package var attachments: [QBAttachment]

        package init(id: String, dialogID: DialogID, text: String, senderID: Int, dateSent: Int, attachments: [QBAttachment] = []) {
            self.id = id; self.dialogID = dialogID; self.text = text; self.senderID = senderID
            self.dateSent = dateSent; self.attachments = attachments
        }
    }

    package var action: Action
    /// Nil when absent, empty, or the React kit's `"undefined"`.
    package var originSenderName: String?
    package var originals: [Original]

    package init(action: Action, originSenderName: String?, originals: [Original]) {
        self.action = action; self.originSenderName = originSenderName; self.originals = originals
    }

    package static let actionKey = "qb_message_action"
    package static let originSenderNameKey = "origin_sender_name"
    package static let originalMessagesKey = "qb_original_messages"

    /// What the apps send as the text of a forward without words of its own, and of a
    /// reply that is only attachments; shown as nothing.
    package static let forwardedText = "[Forwarded_Message]"
    package static let repliedText = "[Replied_Message]"

    // MARK: reading

    /// From a message's custom parameters (`QBMessage.customParameters`, or a heard
    /// message's extraParams as text): nil unless the action is `reply` or `forward`
    /// and at least one original object can be read. The array may come as a string
    /// (what the apps send) or as a JSON array (tolerated).
    package init?(custom: [String: JSONValue]) {
        guard let action = custom[Self.actionKey]?.looseString.flatMap({ Action(rawValue: $0.trimmingScalars(" \t\r\n")) })
        else { return nil }
        var list = custom[Self.originalMessagesKey]
        if case .string(let text)? = list { list = try? JSONValue(parsing: text) }
        guard case .array(let items)? = list else { return nil }
        let originals = items.compactMap(Original.init(json:))
        guard !originals.isEmpty else { return nil }
        let name = custom[Self.originSenderNameKey]?.looseString?.trimmingScalars(" \t\r\n")
        self.init(action: action, originSenderName: name.flatMap { $0.isEmpty || $0 == "undefined" ? nil : $0 }, originals: originals)
    }

    /// From extraParams children as text (an XMPP message, an outbox entry).
    package init?(custom: [String: String]) {
        self.init(custom: custom.mapValues { JSONValue.string($0) })
    }

    // MARK: writing

    /// The three custom parameters, each a string (the form every kit reads).
    package var customParameters: [String: String] {
        var parameters = [Self.actionKey: action.rawValue, Self.originalMessagesKey: Self.json(originals)]
        parameters[Self.originSenderNameKey] = originSenderName ?? ""
        return parameters
    }

    /// The array as the iOS kit writes it: `_id`, `chat_dialog_id`, `message`,
    /// `sender_id` and `recipient_id` (numbers), `date_sent` in milliseconds,
    /// `attachments` (each with `uid`, which Android reads, beside `id`), and empty
    /// `delivered_ids`/`read_ids`.
    static func json(_ originals: [Original]) -> String {
        JSONValue.array(originals.map(\.json)).compactText
    }
}

extension QBQuotedMessages.Original {
    /// From one object of the array; nil for anything but an object.
    init?(json: JSONValue) {
        guard json.objectValue != nil else { return nil }
        var seconds = json["date_sent"]?.looseUnixSeconds ?? 0
        // Milliseconds (iOS, React) from seconds (Android): no message is from after 5138.
        if seconds > 99_999_999_999 { seconds /= 1000 }
        self.init(id: (json["_id"] ?? json["id"])?.looseString ?? "", dialogID: DialogID(json["chat_dialog_id"]?.looseString ?? ""),
                  text: json["message"]?.looseString ?? "", senderID: json["sender_id"]?.looseInt ?? 0, dateSent: seconds,
                  attachments: QBAttachment.list(from: json["attachments"]))
    }

    /// An original taken from a stored message.
    package init(_ message: QBMessage) {
        self.init(id: message.id, dialogID: message.chatDialogId, text: message.message ?? "", senderID: message.senderId,
                  dateSent: message.dateSent, attachments: message.attachments)
    }

    var json: JSONValue {
        let attachments = attachments.map { attachment -> JSONValue in
            guard case .object(var members) = attachment.json else { return attachment.json }
            if members["uid"] == nil, let id = attachment.id { members["uid"] = .string(id) }
            return .object(members)
        }
        return .object([
            "_id": .string(id), "chat_dialog_id": .string(dialogID.rawValue), "message": .string(text),
            "sender_id": .int(senderID), "recipient_id": .int(0), "date_sent": .int(dateSent * 1000),
            "attachments": .array(attachments), "delivered_ids": .array([]), "read_ids": .array([]),
        ])
    }
}
