import ClientConfiguration
import XMPPTransport

/// The chat half of a login made without a head start (`ChatHeadStart` falls back to it
/// when it cannot start its thread): connects as the config says and disconnects
/// politely when released.
package final class ChatConnector: ChatConnecting {
    package let connection = XMPPConnection()
    private let config: ClientConfig
    private let options: ChatConnectOptions

    package init(config: ClientConfig, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config
        options = config.chatConnectOptions(verboseLog: verboseLog)
    }

    /// `secret` is the session token or the user's password (per `chatAuth`).
    package func connect(userId: Int, secret: String) throws(XMPPError) {
        try connection.connect(jid: config.chatJID(userId: userId), password: secret, endpoint: config.chatEndpoint, options: options)
    }

    deinit { if connection.isConnected { connection.disconnect(timeout: 1) } }
}
