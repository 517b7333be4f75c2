import ChatIdentifiers

/// XEP-0085 chat states (typing notifications).
package enum ChatState: String, Sendable, Equatable, CaseIterable {
    case active, composing, paused, inactive, gone

    static let namespace = "http://jabber.org/protocol/chatstates"

    /// The standalone notification stanza (no body, not stored).
    func stanza(kind: OutgoingChatMessage.Kind, to: ChatJID, dialogID: DialogID?) -> StanzaElement {
        var children = [StanzaElement(rawValue, namespace: Self.namespace)]
        if let dialogID {
            children.append(StanzaElement("extraParams", namespace: "jabber:client",
                                          children: [StanzaElement("dialog_id", text: dialogID.rawValue)]))
        }
        return StanzaElement("message", attributes: [.init("type", kind.rawValue), .init("to", to.bare.description)],
                             children: children)
    }
}
