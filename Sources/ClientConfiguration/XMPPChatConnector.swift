#if canImport(Glibc)
import Glibc
#endif
import XMPPTransport

/// The user's chat connection as the config describes it (endpoint, JID, CA,
/// plaintext rule): what `chatctl login` and the messaging commands both connect with.
public final class XMPPChatConnector {
    public let connection = XMPPConnection()
    private let config: ClientConfig
    private let timeout: Double
    private let verboseLog: (@Sendable (String) -> Void)?

    public init(config: ClientConfig, timeout: Double = 15, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.timeout = timeout; self.verboseLog = verboseLog
    }

    /// `secret` is the session token or the user's password (per `chatAuth`).
    public func connect(userId: Int, secret: String) throws(XMPPError) {
        Self.chooseTrustStore(caFile: config.caFile)
        let options = ChatConnectOptions(caFile: config.caFile, allowPlaintext: config.allowsPlaintextChat,
                                         timeout: timeout, verboseLog: verboseLog)
        try connection.connect(jid: config.chatJID(userId: userId), password: secret,
                               endpoint: config.chatEndpoint, options: options)
    }

    deinit { if connection.isConnected { connection.disconnect(timeout: 1) } }

    /// libstrophe has OpenSSL load its default trust store, which means parsing
    /// the whole system CA bundle (~50 ms of CPU with OpenSSL 3, and libstrophe
    /// does it twice per connection). With a `caFile`, that CA is the one to
    /// trust; without, OpenSSL can look issuers up in the hashed certificate
    /// directory instead, loading only the one it needs. The config's caFile
    /// is the most specific instruction and wins over SSL_CERT_FILE/SSL_CERT_DIR
    /// in the environment; without one, those (when set) are left alone.
    static func chooseTrustStore(caFile: String?) {
        if let caFile {
            setenv("SSL_CERT_FILE", caFile, 1)
            setenv("SSL_CERT_DIR", "/nonexistent/chatctl-no-ca-dir", 1)
        } else if getenv("SSL_CERT_FILE") == nil && getenv("SSL_CERT_DIR") == nil && access("/etc/ssl/certs", R_OK) == 0 {
            setenv("SSL_CERT_FILE", "/nonexistent/chatctl-no-ca-bundle", 1)
            setenv("SSL_CERT_DIR", "/etc/ssl/certs", 1)
        }
    }
}
