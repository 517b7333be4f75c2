import SandboxStorage

/// What the XMPP server asks the storage side when a client authenticates
/// (SASL PLAIN as `{userId}-{appId}`): is `secret` that user's password or a
/// live session token of that user?
package protocol ChatAuthenticator: AnyObject {
    func authenticateChat(userId: Int, secret: String) -> Bool
    /// As `authenticateChat`, telling a wrong secret from too many wrong passwords.
    func checkChatCredentials(userId: Int, secret: String) -> ChatAuthentication
    /// As above, wrong passwords counted against the client's `address` too.
    func checkChatCredentials(userId: Int, secret: String, from address: String?) -> ChatAuthentication
}

extension ChatAuthenticator {
    package func checkChatCredentials(userId: Int, secret: String) -> ChatAuthentication {
        authenticateChat(userId: userId, secret: secret) ? .accepted : .refused
    }

    package func checkChatCredentials(userId: Int, secret: String, from address: String?) -> ChatAuthentication {
        checkChatCredentials(userId: userId, secret: secret)
    }
}

/// The sandbox's own users: their passwords and live sessions.
extension SandboxDatabase: ChatAuthenticator {}
