public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// Whole-transfer timeout in seconds; connecting has its own, shorter, limit.
    public var timeout: Double
    /// An answer body larger than this is refused (`.responseTooLarge`), never buffered.
    public var maxResponseBytes: Int
    /// JSON answers: a page of 100 dialogs or messages is far below this.
    public static let defaultMaxResponseBytes = 16 << 20
    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Double = 30,
                maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}
