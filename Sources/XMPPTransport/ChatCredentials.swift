/// Who a chat connection authenticates as: the full JID and the SASL PLAIN secret (the
/// session token or the password). The secret never reaches a log or an error.
public struct ChatCredentials: Sendable {
    public var jid: String
    public var password: String
    public init(jid: String, password: String) { self.jid = jid; self.password = password }
}
