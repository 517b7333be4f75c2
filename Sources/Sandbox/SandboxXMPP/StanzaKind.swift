import SandboxXML

/// The three stanzas of RFC 6120 §8; anything else on a stream is a nonza.
enum StanzaKind: Equatable {
    case message, presence, iq

    /// What `element` is: a stanza only in `jabber:client`; nil for a nonza.
    init?(_ element: XMPPElement) {
        guard element.namespace == XMPPNamespace.client else { return nil }
        switch element.name {
        case "message": self = .message
        case "presence": self = .presence
        case "iq": self = .iq
        default: return nil
        }
    }
}
