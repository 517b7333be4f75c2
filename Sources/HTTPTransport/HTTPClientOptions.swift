public struct HTTPClientOptions: Sendable {
    /// Extra CA bundle (PEM) to trust; TLS is always verified.
    public var caFile: String?
    public var connectTimeout: Double
    public var userAgent: String
    /// Receives one line per request/response for --verbose; secrets already redacted.
    public var verboseLog: (@Sendable (String) -> Void)?
    public init(caFile: String? = nil, connectTimeout: Double = 10, userAgent: String = "chatctl", verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.connectTimeout = connectTimeout; self.userAgent = userAgent; self.verboseLog = verboseLog
    }
}
