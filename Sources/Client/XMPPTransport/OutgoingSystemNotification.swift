import ChatIdentifiers

/// A QuickBlox system notification announcing a dialog to one occupant
/// (docs/protocol.md §7): a bodiless `<message type="headline">` to the user's bare
/// JID whose `extraParams` start with `<moduleIdentifier>SystemNotifications</moduleIdentifier>`,
/// as the SDKs' `sendSystemMessage` writes it, followed by the dialog's fields.
package struct OutgoingSystemNotification: Sendable, Equatable {
    /// `notification_type`: what happened to the dialog, from the recipient's side.
    package enum Kind: Int, Sendable, Equatable {
        /// The recipient is in a dialog new to them (created, or they were added).
        case dialogCreated = 1
        /// A dialog the recipient was already in changed (occupants added).
        case dialogUpdated = 2
    }

    package var id: ObjectID
    /// The recipient; sent to the bare JID.
    package var to: ChatJID
    package var kind: Kind
    package var dialogID: DialogID
    /// The dialog's `type` number: 1 public group, 2 group, 3 private.
    package var dialogType: Int
    /// Left out when nil or empty (private dialogs have none).
    package var name: String?
    package var occupantIDs: [Int]
    /// `xmpp_room_jid`, for group dialogs.
    package var roomJID: ChatJID?
    /// `new_occupants_ids`: who was just added (with `.dialogUpdated`).
    package var newOccupantIDs: [Int]
    /// Unix seconds.
    package var dateSent: Int?

    package init(id: ObjectID, to: ChatJID, kind: Kind, dialogID: DialogID, dialogType: Int, name: String?,
                occupantIDs: [Int], roomJID: ChatJID? = nil, newOccupantIDs: [Int] = [], dateSent: Int? = nil) {
        self.id = id; self.to = to.bare; self.kind = kind; self.dialogID = dialogID; self.dialogType = dialogType
        self.name = name; self.occupantIDs = occupantIDs; self.roomJID = roomJID.map(\.bare)
        self.newOccupantIDs = newOccupantIDs; self.dateSent = dateSent
    }

    /// The value that marks a headline as a system notification.
    package static let moduleIdentifier = "SystemNotifications"

    /// Why this notification cannot be sent as it is, or nil. A dialog name is
    /// someone's text, so it is checked like a message body (and never quoted).
    package var validationProblem: String? {
        if dialogID.rawValue.isEmpty { return "the notification has no dialog id" }
        if let name, let bad = MarkupEscaper.firstCharacterXMLCannotCarry(in: name) {
            return "the dialog name contains control character U+\(OutgoingChatMessage.hex(bad.value)), which XMPP (XML 1.0) cannot carry"
        }
        return nil
    }

    /// The `<message type="headline">` stanza (validate first; see `validationProblem`).
    /// Lists are comma-separated text, as the SDKs write `occupants_ids`.
    package var stanza: StanzaElement {
        var extra: [StanzaElement] = [
            StanzaElement("moduleIdentifier", text: Self.moduleIdentifier),
            StanzaElement("notification_type", text: String(kind.rawValue)),
            StanzaElement("dialog_id", text: dialogID.rawValue),
            StanzaElement("_id", text: dialogID.rawValue),
            StanzaElement("type", text: String(dialogType)),
        ]
        if let name, !name.isEmpty { extra.append(StanzaElement("name", text: name)) }
        extra.append(StanzaElement("occupants_ids", text: Self.list(occupantIDs)))
        if let roomJID { extra.append(StanzaElement("xmpp_room_jid", text: roomJID.description)) }
        if !newOccupantIDs.isEmpty { extra.append(StanzaElement("new_occupants_ids", text: Self.list(newOccupantIDs))) }
        if let dateSent { extra.append(StanzaElement("date_sent", text: String(dateSent))) }
        return StanzaElement("message", attributes: [.init("type", "headline"), .init("to", to.description), .init("id", id.rawValue)],
                             children: [StanzaElement("extraParams", namespace: "jabber:client", children: extra)])
    }

    /// The stanza as sent.
    package var xml: String { stanza.xml() }

    private static func list(_ ids: [Int]) -> String { ids.map(String.init).joined(separator: ",") }
}
