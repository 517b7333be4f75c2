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
