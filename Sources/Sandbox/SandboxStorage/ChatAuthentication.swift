/// The answer to a chat login (`SandboxDatabase.checkChatCredentials`).
package enum ChatAuthentication: Equatable {
    case accepted
    case refused
    /// Too many wrong passwords for this user or from this address lately: not checked (SASL `temporary-auth-failure`).
    case throttled
}
