import XMPPTransport

/// The user's chat connection as the config describes it (endpoint, JID, CA,
/// plaintext rule): what `chatctl login` and the messaging commands both connect with.
package final class XMPPChatConnector {
    package let connection = XMPPConnection()
    private let config: ClientConfig
    private let timeout: Double
    private let verboseLog: (@Sendable (String) -> Void)?

    /// `timeout`: seconds for the whole connect; nil takes the config's `chatConnectTimeout`.
    package init(config: ClientConfig, timeout: Double? = nil, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.timeout = timeout ?? config.chatConnectTimeout; self.verboseLog = verboseLog
    }

    /// `secret` is the session token or the user's password (per `chatAuth`).
    package func connect(userId: Int, secret: String) throws(XMPPError) {
        let options = ChatConnectOptions(caFile: config.caFile, allowPlaintext: config.allowsPlaintextChat,
                                         timeout: timeout, verboseLog: verboseLog)
        try connection.connect(jid: config.chatJID(userId: userId), password: secret,
                               endpoint: config.chatEndpoint, options: options)
    }

    deinit { if connection.isConnected { connection.disconnect(timeout: 1) } }
}
