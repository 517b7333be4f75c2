/// A presence from a MUC room occupant (`{room}/{nick}`), reduced to what joining
/// and leaving need: whether it is our own (status 110), unavailable, or an error.
package struct RoomPresence: Sendable, Equatable {
    package var room: ChatJID
    package var nick: String
    package var isSelf: Bool
    package var isUnavailable: Bool
    /// The error condition of a `type="error"` presence (join refused).
    package var errorCondition: String?

    package init(room: ChatJID, nick: String, isSelf: Bool, isUnavailable: Bool = false, errorCondition: String? = nil) {
        self.room = room; self.nick = nick; self.isSelf = isSelf; self.isUnavailable = isUnavailable; self.errorCondition = errorCondition
    }

    static let mucNamespace = "http://jabber.org/protocol/muc"
    static let mucUserNamespace = "http://jabber.org/protocol/muc#user"

    /// Nil for a presence that is not from a room occupant.
    package init?(_ stanza: StanzaElement) {
        guard stanza.name == "presence", let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:)) else { return nil }
        let type = stanza[attribute: "type"]
        room = from.bare
        nick = from.resource ?? ""
        isUnavailable = type == "unavailable"
        if type == "error" {
            errorCondition = ChatMessageError.details(of: stanza)?.condition ?? "undefined-condition"
            isSelf = false
            return
        }
        errorCondition = nil
        guard let x = stanza.child("x", namespace: Self.mucUserNamespace) else { return nil }
        isSelf = x.children.contains { $0.name == "status" && $0[attribute: "code"] == "110" }
    }

    /// `<presence to="{room}/{nick}"><x xmlns="…muc"><history maxstanzas="0"/></x></presence>`.
    static func joinStanza(room: ChatJID, nick: String) -> StanzaElement {
        StanzaElement("presence", attributes: [.init("to", room.bare.with(resource: nick).description)], children: [
            StanzaElement("x", namespace: mucNamespace, children: [StanzaElement("history", attributes: [.init("maxstanzas", "0")])]),
        ])
    }

    static func leaveStanza(room: ChatJID, nick: String) -> StanzaElement {
        StanzaElement("presence", attributes: [.init("to", room.bare.with(resource: nick).description), .init("type", "unavailable")])
    }
}
