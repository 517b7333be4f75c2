package struct HTTPClientOptions: Sendable {
    /// Extra CA bundle (PEM) to trust; TLS is always verified.
    package var caFile: String?
    package var connectTimeout: Double
    package var userAgent: String
    /// Receives one line per request/response for --verbose; secrets already redacted.
    package var verboseLog: (@Sendable (String) -> Void)?
    package init(caFile: String? = nil, connectTimeout: Double = 10, userAgent: String = "chatctl", verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.connectTimeout = connectTimeout; self.userAgent = userAgent; self.verboseLog = verboseLog
    }
}
