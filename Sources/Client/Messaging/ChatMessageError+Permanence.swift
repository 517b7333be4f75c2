import MessageCache
import XMPPTransport

/// Whether a message the chat server bounced may pass if sent again. RFC 6120
/// §8.3.2: `wait` says try later; these conditions say the message itself or its sender is
/// refused. `not-acceptable` is not among them: the server also says it for a room not
/// joined yet, which a resend after the join cures.
extension ChatMessageError {
    var isPermanent: Bool {
        guard type != "wait" else { return false }
        return Self.permanentConditions.contains(condition)
    }

    static let permanentConditions: Set<String> = [
        "forbidden", "item-not-found", "not-allowed", "bad-request", "policy-violation", "jid-malformed",
        "feature-not-implemented", "registration-required", "gone",
    ]

    /// The condition and the server's text, for a person.
    var reason: String {
        guard let text, !text.isEmpty else { return condition }
        return "\(condition) (\(text))"
    }
}

extension ChatMessageError {
    /// The other person of a private dialog when they block the sender: their privacy list
    /// refused the message, which the server says with `service-unavailable` (XEP-0016 §2.13,
    /// as ejabberd answers; docs/protocol.md §7 "Privacy lists"). Nil for any other bounce.
    func blocker(in dialog: CachedDialog, me: Int) -> Int? {
        guard dialog.type == .private, condition == "service-unavailable" else { return nil }
        return dialog.occupantIDs.first { $0 != me }
    }
}
