// An answer the HTTP library writes by itself (libevent's evhttp refuses a request too large
// or malformed before any service sees it): how to recognise its status line as it is written,
// and the CORS header a browser needs to show the page the real error (docs/protocol.md §10).

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
}
