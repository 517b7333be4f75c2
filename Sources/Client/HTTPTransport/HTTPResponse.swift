package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [HTTPHeader]
    package var body: [UInt8]
    package init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }
    /// Case-insensitive header lookup (first match).
    package func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
