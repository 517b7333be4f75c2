// How the REST server tells libevent's own answers as they are written (docs/protocol.md §10):
// one whole final status line, and nothing else that goes through the output.
import Testing
import SandboxHTTP

@Suite struct LibraryRefusalTests {
    @Test(arguments: [
        ("HTTP/1.1 413 Request Entity Too Large\r\n", 413),
        ("HTTP/1.1 400 Bad Request\r\n", 400),
        ("HTTP/1.0 501 Not Implemented\r\n", 501),
        ("HTTP/1.1 404 \r\n", 404),
    ])
    func aStatusLineIsRecognised(line: String, status: Int) {
        #expect(LibraryRefusal.statusCode(ofStatusLine: Array(line.utf8)) == status)
    }

    @Test(arguments: [
        "HTTP/1.1 100 Continue\r\n\r\n",             // libevent's interim answer: a blank line follows at once
        "HTTP/1.1 100 Continue\r\n",
        "HTTP/1.1 413 Request Entity Too Large",      // not a whole line
        "HTTP/1.1 413 Too Large\r\nDate: now\r\n",    // more than one line
        "Content-Type: text/html\r\n",
        "\r\n",
        "<HTML><HEAD>\n",
        "HTTP/2 400 Bad Request\r\n",
        "HTTP/1.1 4x3 Odd\r\n",
        "HTTP/1.1 4134 Odd\r\n",
    ])
    func anythingElseIsNot(text: String) {
        #expect(LibraryRefusal.statusCode(ofStatusLine: Array(text.utf8)) == nil)
    }

    @Test func refusalsMayBeReadByAnyPage() {
        #expect(LibraryRefusal.headers.map(\.0) == ["Access-Control-Allow-Origin"])
        #expect(LibraryRefusal.headers.map(\.1) == ["*"])
    }

    /// What follows libevent's status line in the sandbox's answer: the CORS header and a JSON
    /// body in QuickBlox's error shape, which QuickBlox's SDKs read as they read every error.
    @Test func theRestOfARefusalIsJSON() {
        let statusLine = Array("HTTP/1.1 413 Request Entity Too Large\r\n".utf8)
        let rest = LibraryRefusal.remainder(status: 413, statusLine: statusLine, extraHeaders: LibraryRefusal.headers)
        let body = #"{"errors":["Request entity too large"]}"#
        #expect(String(decoding: rest, as: UTF8.self) == "Access-Control-Allow-Origin: *\r\nContent-Type: application/json; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }

    @Test(arguments: [
        (400, "HTTP/1.1 400 Bad Request\r\n", "Bad request"),
        (501, "HTTP/1.1 501 Not Implemented\r\n", "Not implemented"),
        (503, "HTTP/1.1 503 Service Unavailable\r\n", "Service Unavailable"),
        (505, "HTTP/1.1 505 \r\n", "HTTP 505"),
        (418, "HTTP/1.1 418 A \"quoted\" \\ teapot\r\n", #"A \"quoted\" \\ teapot"#),
    ])
    func eachRefusalSaysWhatWasWrong(status: Int, line: String, reason: String) {
        let text = String(decoding: LibraryRefusal.remainder(status: status, statusLine: Array(line.utf8), extraHeaders: []), as: UTF8.self)
        #expect(text.hasSuffix("\r\n\r\n{\"errors\":[\"\(reason)\"]}"), "\(text)")
    }
}
