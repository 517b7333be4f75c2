import ClientConfiguration
import XMPPTransport

/// Connects the chat half of a login; tests substitute a fake.
public protocol ChatConnecting: AnyObject {
    /// `secret` is the session token or the user's password (per `chatAuth`).
    func connect(userId: Int, secret: String) throws(XMPPError)
}

extension XMPPChatConnector: ChatConnecting {}
