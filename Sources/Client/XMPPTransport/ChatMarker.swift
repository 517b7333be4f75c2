import ChatIdentifiers

/// A XEP-0333 chat marker: `<received/>` or `<displayed/>` for a message id,
/// exchanged as `type="chat"` with the original sender, carrying the dialog id.
package struct ChatMarker: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable { case received, displayed }
    package var kind: Kind
    /// The id of the message being marked.
    package var messageID: String
    /// Incoming: who sent the marker. Outgoing: the original sender (a user JID).
    package var peer: ChatJID
    package var dialogID: DialogID?

    package init(kind: Kind, messageID: String, peer: ChatJID, dialogID: DialogID?) {
        self.kind = kind; self.messageID = messageID; self.peer = peer; self.dialogID = dialogID
    }

    /// `stanza(id:).xml()`, written straight into one buffer of bytes: `listen` answers
    /// every message with one, and the element tree and its serialisation were a tenth
    /// of it (then appending to a String piece by piece was most of what remained).
    package func xml(id: ObjectID) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        out += #"<message type="chat" to=""#.utf8
        // The bare JID, written in place (`peer.bare.description` built two strings a marker).
        if let node = peer.node {
            Self.append(node, to: &out, inAttribute: true)
            out.append(UInt8(ascii: "@"))
        }
        Self.append(peer.domain, to: &out, inAttribute: true)
        out += #"" id=""#.utf8
        Self.append(id.rawValue, to: &out, inAttribute: true)
        out += #""><"#.utf8
        out += kind.rawValue.utf8
        out += #" xmlns=""#.utf8
        out += OutgoingChatMessage.markersNamespace.utf8
        out += #"" id=""#.utf8
        Self.append(messageID, to: &out, inAttribute: true)
        out += #""/>"#.utf8
        if let dialogID {
            out += #"<extraParams xmlns="jabber:client">"#.utf8
            if dialogID.rawValue.isEmpty {
                out += "<dialog_id/>".utf8
            } else {
                out += "<dialog_id>".utf8
                Self.append(dialogID.rawValue, to: &out, inAttribute: false)
                out += "</dialog_id>".utf8
            }
            out += "</extraParams>".utf8
        }
        out += "</message>".utf8
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` escaped as a stanza escapes it; as it is when nothing needs it.
    private static func append(_ text: String, to out: inout [UInt8], inAttribute: Bool) {
        let escaper = inAttribute ? MarkupEscaper.xmlAttribute : MarkupEscaper.xmlText
        out += (escaper.changes(text) ? escaper.escaping(text) : text).utf8
    }

    /// The marker stanza to send, with its own stanza id.
    package func stanza(id: ObjectID) -> StanzaElement {
        var children = [StanzaElement(kind.rawValue, namespace: OutgoingChatMessage.markersNamespace,
                                      attributes: [.init("id", messageID)])]
        if let dialogID {
            children.append(StanzaElement("extraParams", namespace: "jabber:client",
                                          children: [StanzaElement("dialog_id", text: dialogID.rawValue)]))
        }
        return StanzaElement("message", attributes: [.init("type", "chat"), .init("to", peer.bare.description), .init("id", id.rawValue)],
                             children: children)
    }
}
