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
}
