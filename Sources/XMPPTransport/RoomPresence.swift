/// A presence from a MUC room occupant (`{room}/{nick}`), reduced to what joining
/// and leaving need: whether it is our own (status 110), unavailable, or an error.
struct RoomPresence: Sendable, Equatable {
    var room: ChatJID
    var nick: String
    var isSelf: Bool
    var isUnavailable: Bool
    /// The error condition of a `type="error"` presence (join refused).
    var errorCondition: String?

    static let mucNamespace = "http://jabber.org/protocol/muc"
    static let mucUserNamespace = "http://jabber.org/protocol/muc#user"

    init?(_ stanza: StanzaElement) {
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
