import SandboxXML

/// The `type` of a message (RFC 6121 §5.2.2).
enum MessageType: String, Equatable {
    case chat, groupchat, headline, normal, error

    /// `stanza`'s type; none, or one RFC 6121 does not define, is `normal` (§5.2.2). A switch,
    /// not `init(rawValue:)`, whose table search cost every routed message more.
    init(of stanza: XMPPElement) {
        guard let type = stanza[attribute: "type"] else {
            self = .normal
            return
        }
        switch type {
        case "chat": self = .chat
        case "groupchat": self = .groupchat
        case "headline": self = .headline
        case "error": self = .error
        default: self = .normal
        }
    }
}
