/// Who a chat connection authenticates as: the full JID and the SASL PLAIN secret (the
/// session token or the password). The secret never reaches a log or an error.
package struct ChatCredentials: Sendable {
    package var jid: String
    package var password: String
    package init(jid: String, password: String) { self.jid = jid; self.password = password }
}
