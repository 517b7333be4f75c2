/// A XEP-0280 carbon copy (docs/protocol.md §7): a 1:1 message that another of the
/// user's resources sent (`sent`) or was sent (`received`), forwarded by the server as
/// `<message from="{own bare JID}"><sent xmlns="urn:xmpp:carbons:2"><forwarded
/// xmlns="urn:xmpp:forward:0"><message …/></forwarded></sent></message>`.
package struct IncomingCarbon: Sendable, Equatable {
    package enum Direction: String, Sendable, Equatable {
        /// We sent it from another device: the forwarded message is ours.
        case sent
        /// Someone sent it to another of our resources.
        case received
    }

    package var direction: Direction
    /// The forwarded message, read as if it had arrived directly.
    package var message: IncomingChatMessage
    /// The other party: the forwarded `to` of a sent copy, its `from` of a received one.
    package var peer: ChatJID?

    package init(direction: Direction, message: IncomingChatMessage, peer: ChatJID?) {
        self.direction = direction; self.message = message; self.peer = peer
    }

    package static let namespace = "urn:xmpp:carbons:2"
    static let forwardNamespace = "urn:xmpp:forward:0"

    /// The `<sent/>` or `<received/>` child, when the stanza is a carbon at all.
    static func wrapper(of stanza: StanzaElement) -> (Direction, StanzaElement)? {
        for child in stanza.children where (child.namespace ?? stanza.namespace) == namespace {
            if let direction = Direction(rawValue: child.name) { return (direction, child) }
        }
        return nil
    }

    /// Whether the stanza wraps a carbon, forged or not.
    package static func isCarbon(_ stanza: StanzaElement) -> Bool { wrapper(of: stanza) != nil }

    /// Reads a carbon of a chat message with a body. Nil for anything else, and for a
    /// forgery: only the user's own account (`from` = `ownJID`'s bare JID) may forward
    /// copies (XEP-0280 §11), else anyone could put words in our mouth.
    package static func parse(_ stanza: StanzaElement, ownJID: ChatJID?, receivedAt: Int) -> IncomingCarbon? {
        guard stanza.name == "message", let own = ownJID?.bare, let (direction, wrapper) = wrapper(of: stanza),
              let fromText = stanza[attribute: "from"], let from = ChatJID(parsing: fromText),
              from.resource == nil, from.description.lowercased() == own.description.lowercased(),
              let forwarded = wrapper.child("forwarded", namespace: forwardNamespace),
              var inner = forwarded.children.first(where: { $0.name == "message" }) else { return nil }
        guard inner[attribute: "type"] == "chat" else { return nil }  // carbons are of 1:1 chats only
        // Our own sent copy may leave out `from`: it is us.
        if direction == .sent, inner[attribute: "from"] == nil {
            inner.attributes.append(.init("from", own.description))
        }
        guard case .message(var message)? = ChatEvent.parse(inner, receivedAt: receivedAt) else { return nil }
        let peer: ChatJID?
        switch direction {
        case .sent:
            // Whatever the forwarded `from` says, a sent copy is ours.
            message.senderUserID = own.userID
            peer = inner[attribute: "to"].flatMap(ChatJID.init(parsing:))
        case .received:
            peer = message.from
        }
        return IncomingCarbon(direction: direction, message: message, peer: peer)
    }
}
