import ClientConfiguration
import XMPPTransport

/// Connects the chat half of a login; tests substitute a fake.
package protocol ChatConnecting: AnyObject {
    /// Called when the login starts, before any REST request: a connector may begin what
    /// needs no credentials (`ChatHeadStart`). Nothing by default.
    func prepare()
    /// `secret` is the session token or the user's password (per `chatAuth`).
    func connect(userId: Int, secret: String) throws(XMPPError)
}

extension ChatConnecting {
    package func prepare() {}
}

