package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    package var url: String
    package var headers: [HTTPHeader]
    package var body: [UInt8]
    /// Whole-transfer timeout in seconds; connecting has its own, shorter, limit.
    package var timeout: Double
    /// An answer body larger than this is refused (`.responseTooLarge`), never buffered.
    package var maxResponseBytes: Int
    /// JSON answers: a page of 100 dialogs or messages is far below this.
    package static let defaultMaxResponseBytes = 16 << 20
    package init(method: HTTPMethod, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Double = 30,
                maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}
