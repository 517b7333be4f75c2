package struct ChatConnectOptions: Sendable {
    /// The CA (PEM) to trust, for this connection only and instead of the system's store;
    /// without it, the system's store (OpenSSL's default, which honours SSL_CERT_FILE and
    /// SSL_CERT_DIR). Either is parsed once per process. Certificates are always verified.
    package var caFile: String?
    /// Allow SASL over an unencrypted stream when the server offers no STARTTLS.
    /// The caller sets it for loopback hosts or when the config says so explicitly.
    package var allowPlaintext: Bool
    /// Limit for the whole connect (TCP, TLS, SASL, bind, session), in seconds.
    package var timeout: Double
    /// Receives diagnostic lines for --verbose; SASL payloads never included.
    package var verboseLog: (@Sendable (String) -> Void)?
    /// Ping the server after this many seconds without hearing from it (0: never).
    package var keepAliveInterval: Double = 60
    /// With a ping outstanding, this many seconds of silence mean the connection is lost.
    package var keepAliveTimeout: Double = 20
    /// Ask for an XEP-0198 ack (`<r/>`) after this many stanzas, at the end of each batch
    /// (`send(contentsOf:)`) and whenever sending goes idle: a stream of lines is acknowledged
    /// a batch at a time, with progress within a long one.
    package var ackRequestInterval: Int = 1000
    package init(caFile: String? = nil, allowPlaintext: Bool = false, timeout: Double = 15, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.allowPlaintext = allowPlaintext; self.timeout = timeout; self.verboseLog = verboseLog
    }
}
