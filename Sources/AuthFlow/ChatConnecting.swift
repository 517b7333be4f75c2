import XMPPTransport

/// Connects the chat half of a login; tests substitute a fake.
public protocol ChatConnecting: AnyObject {
    /// `secret` is the session token or the user's password (per `chatAuth`).
    func connect(userId: Int, secret: String) throws(XMPPError)
}

/// The real chat connection through libstrophe, per the config's endpoint.
public final class XMPPChatConnector: ChatConnecting {
    public let connection = XMPPConnection()
    private let config: ClientConfig
    private let timeout: Double
    private let verboseLog: (@Sendable (String) -> Void)?

    public init(config: ClientConfig, timeout: Double = 15, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.timeout = timeout; self.verboseLog = verboseLog
    }

    public func connect(userId: Int, secret: String) throws(XMPPError) {
        let options = ChatConnectOptions(caFile: config.caFile, allowPlaintext: config.allowsPlaintextChat,
                                         timeout: timeout, verboseLog: verboseLog)
        try connection.connect(jid: config.chatJID(userId: userId), password: secret,
                               endpoint: config.chatEndpoint, options: options)
    }

    deinit { if connection.isConnected { connection.disconnect(timeout: 1) } }
}
