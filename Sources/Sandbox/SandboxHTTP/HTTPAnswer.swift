/// What the service answers an `HTTPRequest` with; the server writes it as it is (adding only
/// what HTTP itself needs: the status line, the length).
package struct HTTPAnswer {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
