public struct ChatConnectOptions: Sendable {
    /// Extra CA (PEM) to trust; certificates are always verified.
    public var caFile: String?
    /// Allow SASL over an unencrypted stream when the server offers no STARTTLS.
    /// The caller sets it for loopback hosts or when the config says so explicitly.
    public var allowPlaintext: Bool
    /// Limit for the whole connect (TCP, TLS, SASL, bind, session), in seconds.
    public var timeout: Double
    /// Receives diagnostic lines for --verbose; SASL payloads never included.
    public var verboseLog: (@Sendable (String) -> Void)?
    public init(caFile: String? = nil, allowPlaintext: Bool = false, timeout: Double = 15, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.allowPlaintext = allowPlaintext; self.timeout = timeout; self.verboseLog = verboseLog
    }
}
