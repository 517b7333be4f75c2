import SandboxXML

/// The `type` of a message (RFC 6121 §5.2.2).
enum MessageType: String, Equatable {
    case chat, groupchat, headline, normal, error

    /// `stanza`'s type; none, or one RFC 6121 does not define, is `normal` (§5.2.2).
    init(of stanza: XMPPElement) {
        self = stanza[attribute: "type"].flatMap(MessageType.init(rawValue:)) ?? .normal
    }
}
