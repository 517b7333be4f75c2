import ChatIdentifiers

/// A change to a message already sent, told to the other occupants live
/// (docs/protocol.md §6, "Edits and deletes"): a correction (XEP-0308, the new text
/// in the body) or a retraction (XEP-0424). The change itself is made over REST; these
/// are not stored (`save_to_history` 0). Receivers apply one only when it comes from
/// the message's sender.
package enum ChatCorrection: Sendable, Equatable {
    case replace(id: String, text: String)
    case retract(id: String)

    package var messageID: String {
        switch self {
        case .replace(let id, _), .retract(let id): return id
        }
    }

    static let correctNamespace = "urn:xmpp:message-correct:0"
    static let retractNamespace = "urn:xmpp:message-retract:1"
    /// XEP-0424 before version 0.4 put the retraction inside a XEP-0422 `<apply-to/>`.
    static let oldRetractNamespace = "urn:xmpp:message-retract:0"
    static let fastenNamespace = "urn:xmpp:fasten:0"

    /// The stanza, with its own id and the dialog in `extraParams` as the SDKs write it.
    package func stanza(id: ObjectID, kind: OutgoingChatMessage.Kind, to: ChatJID, dialogID: DialogID) -> StanzaElement {
        let extra = StanzaElement("extraParams", namespace: "jabber:client", children: [
            StanzaElement("save_to_history", text: "0"), StanzaElement("dialog_id", text: dialogID.rawValue),
        ])
        var children: [StanzaElement]
        switch self {
        case .replace(let original, let text):
            children = [StanzaElement("body", text: text),
                        StanzaElement("replace", namespace: Self.correctNamespace, attributes: [.init("id", original)])]
        case .retract(let original):
            children = [StanzaElement("retract", namespace: Self.retractNamespace, attributes: [.init("id", original)])]
        }
        children.append(extra)
        return StanzaElement("message", attributes: [.init("type", kind.rawValue), .init("to", to.bare.description), .init("id", id.rawValue)],
                             children: children)
    }

    /// The correction a `<message>` carries, if any: `<replace id/>` with a body, or a
    /// retraction in either of XEP-0424's forms.
    static func parse(_ stanza: StanzaElement) -> ChatCorrection? {
        if let replace = stanza.child("replace", namespace: correctNamespace), let id = replace[attribute: "id"], !id.isEmpty,
           let body = stanza.child("body") {
            return .replace(id: id, text: body.text)
        }
        if let retract = stanza.child("retract", namespace: retractNamespace), let id = retract[attribute: "id"], !id.isEmpty {
            return .retract(id: id)
        }
        if let applyTo = stanza.child("apply-to", namespace: fastenNamespace), let id = applyTo[attribute: "id"], !id.isEmpty,
           applyTo.child("retract", namespace: oldRetractNamespace) != nil {
            return .retract(id: id)
        }
        return nil
    }
}

extension XMPPConnection {
    /// Queues a correction to `to` (not tracked: the outbox does not hold it).
    package func sendCorrection(_ correction: ChatCorrection, to: ChatJID, kind: OutgoingChatMessage.Kind,
                                dialogID: DialogID) throws(XMPPError) {
        _ = try sendStanza(correction.stanza(id: makeMessageID(), kind: kind, to: to, dialogID: dialogID).xml(), messageID: nil)
    }
}
