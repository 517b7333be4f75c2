/// What the XMPP server asks the storage side when a client authenticates
/// (SASL PLAIN as `{userId}-{appId}`): is `secret` that user's password or a
/// live session token of that user?
protocol ChatAuthenticator: AnyObject {
    func authenticateChat(userId: Int, secret: String) -> Bool
    /// As `authenticateChat`, telling a wrong secret from too many wrong passwords.
    func checkChatCredentials(userId: Int, secret: String) -> ChatAuthentication
}

/// The answer to a chat login.
enum ChatAuthentication: Equatable {
    case accepted
    case refused
    /// Too many wrong passwords for this user lately: not checked (SASL `temporary-auth-failure`).
    case throttled
}

extension ChatAuthenticator {
    func checkChatCredentials(userId: Int, secret: String) -> ChatAuthentication {
        authenticateChat(userId: userId, secret: secret) ? .accepted : .refused
    }
}
