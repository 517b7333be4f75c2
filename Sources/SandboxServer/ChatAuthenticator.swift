/// What the XMPP server asks the storage side when a client authenticates
/// (SASL PLAIN as `{userId}-{appId}`): is `secret` that user's password or a
/// live session token of that user?
protocol ChatAuthenticator: AnyObject {
    func authenticateChat(userId: Int, secret: String) -> Bool
}
