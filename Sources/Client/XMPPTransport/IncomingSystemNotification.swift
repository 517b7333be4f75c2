import ChatIdentifiers

/// A QuickBlox system notification (docs/protocol.md §7): a dialog was created, or
/// changed (occupants added), announced to each occupant as
/// `<message type="headline"><extraParams xmlns="jabber:client"><moduleIdentifier>SystemNotifications</moduleIdentifier>
/// <notification_type>1</notification_type><dialog_id>…</dialog_id><_id>…</_id><name>…</name><type>2</type>
/// <occupants_ids>1,2,3</occupants_ids>…</extraParams></message>`.
/// Every field comes from another user: check it before acting on it (the listener
/// asks the REST API for the dialog itself), and sanitize it before a terminal.
package struct IncomingSystemNotification: Sendable, Equatable {
    /// `notification_type`.
    package enum Kind: Sendable, Equatable {
        /// `1`: the dialog was created with us in it.
        case created
        /// `2`: the dialog changed (e.g. we were added to it).
        case updated
        /// Any other value, as sent.
        case other(String)
    }

    /// The stanza id, when it had one.
    package var id: String?
    /// The sender; nil when the stanza had no (readable) `from`.
    package var from: ChatJID?
    /// The user id of a user JID sender.
    package var senderUserID: Int?
    package var kind: Kind
    /// `dialog_id`, else `_id`: always 24 hex digits (anything else is not read at all).
    package var dialogID: DialogID
    /// `name`, when given.
    package var name: String?
    /// `type` (1 public group, 2 group, 3 private), when it is a number.
    package var dialogType: Int?
    /// `occupants_ids` (comma-separated, spaces allowed); the numbers among them.
    package var occupantIDs: [Int]
    /// Every childless `extraParams` child, by name (the fields above included).
    package var fields: [String: String]

    package init(id: String?, from: ChatJID?, senderUserID: Int?, kind: Kind, dialogID: DialogID, name: String?,
                dialogType: Int?, occupantIDs: [Int], fields: [String: String]) {
        self.id = id; self.from = from; self.senderUserID = senderUserID; self.kind = kind; self.dialogID = dialogID
        self.name = name; self.dialogType = dialogType; self.occupantIDs = occupantIDs; self.fields = fields
    }

    package static let moduleIdentifier = "SystemNotifications"

    /// Reads a system notification; nil for any other stanza, and for one without a
    /// usable dialog id (garbage is never half-read).
    package init?(parsing stanza: StanzaElement) {
        guard stanza.name == "message", stanza[attribute: "type"] == "headline",
              let extra = stanza.child("extraParams") else { return nil }
        var fields: [String: String] = [:]
        for child in extra.children where child.children.isEmpty && fields[child.name] == nil {
            fields[child.name] = Self.trimmed(child.text)
        }
        guard fields["moduleIdentifier"] == Self.moduleIdentifier,
              let dialogID = [fields["dialog_id"], fields["_id"]].compactMap({ $0.flatMap(ObjectID.init) }).first else { return nil }
        let kind: Kind
        switch fields["notification_type"] ?? "" {
        case "1": kind = .created
        case "2": kind = .updated
        case let other: kind = .other(other)
        }
        let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:))
        self.init(id: stanza[attribute: "id"], from: from, senderUserID: from?.userID, kind: kind, dialogID: DialogID(dialogID.rawValue),
                  name: fields["name"].flatMap { $0.isEmpty ? nil : $0 }, dialogType: fields["type"].flatMap { Int($0) },
                  occupantIDs: Self.numbers(in: fields["occupants_ids"] ?? ""), fields: fields)
    }

    /// `1,2,3`, `1, 2` or `[1,2]`: every run of digits that fits an Int.
    static func numbers(in text: String) -> [Int] {
        text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).compactMap { Int($0) }
    }

    static func trimmed(_ text: String) -> String {
        var rest = Substring(text)
        while rest.first?.isWhitespace == true { rest.removeFirst() }
        while rest.last?.isWhitespace == true { rest.removeLast() }
        return String(rest)
    }
}
