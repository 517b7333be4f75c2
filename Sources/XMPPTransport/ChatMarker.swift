/// A XEP-0333 chat marker: `<received/>` or `<displayed/>` for a message id,
/// exchanged as `type="chat"` with the original sender, carrying the dialog id.
public struct ChatMarker: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case received, displayed }
    public var kind: Kind
    /// The id of the message being marked.
    public var messageID: String
    /// Incoming: who sent the marker. Outgoing: the original sender (a user JID).
    public var peer: ChatJID
    public var dialogID: String?

    public init(kind: Kind, messageID: String, peer: ChatJID, dialogID: String?) {
        self.kind = kind; self.messageID = messageID; self.peer = peer; self.dialogID = dialogID
    }

    /// `stanza(id:).xml()`, written straight into one string: `listen` answers every
    /// message with one, and the element tree and its serialisation were a tenth of it.
    public func xml(id: ObjectID) -> String {
        var out = "<message type=\"chat\" to=\""
        // The bare JID, written in place (`peer.bare.description` built two strings a marker).
        if let node = peer.node {
            StanzaElement.appendEscaped(node, to: &out, inAttribute: true)
            out += "@"
        }
        StanzaElement.appendEscaped(peer.domain, to: &out, inAttribute: true)
        out += "\" id=\""
        StanzaElement.appendEscaped(id.rawValue, to: &out, inAttribute: true)
        out += "\"><"
        out += kind.rawValue
        out += " xmlns=\"\(OutgoingChatMessage.markersNamespace)\" id=\""
        StanzaElement.appendEscaped(messageID, to: &out, inAttribute: true)
        out += "\"/>"
        if let dialogID {
            out += "<extraParams xmlns=\"jabber:client\">"
            if dialogID.isEmpty {
                out += "<dialog_id/>"
            } else {
                out += "<dialog_id>"
                StanzaElement.appendEscaped(dialogID, to: &out, inAttribute: false)
                out += "</dialog_id>"
            }
            out += "</extraParams>"
        }
        out += "</message>"
        return out
    }

    /// The marker stanza to send, with its own stanza id.
    public func stanza(id: ObjectID) -> StanzaElement {
        var children = [StanzaElement(kind.rawValue, namespace: OutgoingChatMessage.markersNamespace,
                                      attributes: [.init("id", messageID)])]
        if let dialogID {
            children.append(StanzaElement("extraParams", namespace: "jabber:client",
                                          children: [StanzaElement("dialog_id", text: dialogID)]))
        }
        return StanzaElement("message", attributes: [.init("type", "chat"), .init("to", peer.bare.description), .init("id", id.rawValue)],
                             children: children)
    }
}
