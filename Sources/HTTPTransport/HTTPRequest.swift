public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// Whole-transfer timeout in seconds; connecting has its own, shorter, limit.
    public var timeout: Double
    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Double = 30) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
    }
}
