// An answer the HTTP library writes by itself (libevent's evhttp refuses a request too large
// or malformed before any service sees it): how to recognise its status line as it is written,
// the CORS header a browser needs to show the page the real error (docs/protocol.md §10), and
// the rest of the answer written in place of the library's HTML page: QuickBlox's error shape
// (§4), as JSON, which a client reading every error as JSON (QuickBlox's SDKs) reads too.

/// What the HTTP server adds to an answer its library writes on its own.
package enum LibraryRefusal {
    /// Any page may read a refusal: it is the library's fixed error page, with no data and no
    /// credentials, and the request's Origin may be unknown (headers too large to read).
    package static let headers: [(String, String)] = [("Access-Control-Allow-Origin", "*")]

    /// The status code when `bytes` are exactly one final status line (`HTTP/1.x NNN reason\r\n`,
    /// NNN 200–599); nil for anything else (a header, a body, `100 Continue` with its blank line).
    package static func statusCode(ofStatusLine bytes: some Collection<UInt8>) -> Int? {
        let line = Array(bytes)
        let prefix = Array("HTTP/1.".utf8)
        guard line.count >= 14, line.count <= 256, line.starts(with: prefix),
              line[line.count - 2] == 13, line[line.count - 1] == 10,
              !line.dropLast(2).contains(where: { $0 == 13 || $0 == 10 }),
              line[7] >= 48, line[7] <= 57, line[8] == 32 else { return nil }
        let digits = line[9..<12]
        guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), line[12] == 32 else { return nil }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        return (200...599).contains(code) ? code : nil
    }

    /// What follows a refusal's status line in the sandbox's answer: `extraHeaders`, then
    /// `{"errors":["…"]}` as JSON, the connection to be closed (as the library closes it).
    package static func remainder(status: Int, statusLine: [UInt8], extraHeaders: [(String, String)]) -> [UInt8] {
        let reason = reason(status, statusLine: String(decoding: statusLine, as: UTF8.self))
        // The phrase is the library's: only a quote or a backslash needs escaping in JSON text.
        let escaped = reason.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : String($0) }.joined()
        let body = Array("{\"errors\":[\"\(escaped)\"]}".utf8)
        var out: [UInt8] = []
        for (name, value) in extraHeaders { out += Array("\(name): \(value)\r\n".utf8) }
        out += Array("Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        return out + body
    }

    /// The `errors` text of a refusal: the sandbox's own words where it has them (§4).
    static func reason(_ status: Int, statusLine: String) -> String {
        switch status {
        case 413: return "Request entity too large"
        case 400: return "Bad request"
        case 501: return "Not implemented"
        default:
            // "HTTP/1.1 NNN Reason phrase\r\n": the phrase, as the library gave it.
            let phrase = statusLine.split(separator: " ", maxSplits: 2).dropFirst(2).first ?? ""
            let trimmed = phrase.filter { !$0.isNewline }.trimmingSpaces
            return trimmed.isEmpty ? "HTTP \(status)" : String(trimmed)
        }
    }
}
