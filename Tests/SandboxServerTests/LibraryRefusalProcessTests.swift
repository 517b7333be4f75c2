// The answers libevent writes by itself (a request too large, a bad request line) carry the
// CORS header, so a page sees the real error (docs/protocol.md §10).
import Foundation
import Testing
import TestSupport

@Suite struct LibraryRefusalProcessTests {
    /// libevent answers these itself, before REST sees them; a page must still read them.
    @Test(arguments: [false, true])
    func aRequestTooLargeOrMalformedIsAnsweredWithTheCORSHeader(https: Bool) throws {
        let s = try BlobSandbox(https ? ["--https", "--cors-origin", "http://localhost:3000"] : [])
        let ca = https ? ["--cacert", try #require(s.sandbox.config["caFile"] as? String)] : []
        let origin = ["-H", "Origin: http://localhost:3000"]
        // A body over the 1 MiB limit: 413, after the body was read (a browser still sending sees the answer).
        let big = s.directory.file("big.json")
        try Data(repeating: 0x20, count: 2 << 20).write(to: URL(fileURLWithPath: big))
        let tooLarge = try s.curl(ca + origin + ["-H", "Content-Type: application/json", "--data-binary", "@\(big)",
                                                "\(s.sandbox.apiEndpoint)/users.json"])
        #expect(tooLarge.status == 413, "\(tooLarge.status) \(tooLarge.stderr)")
        #expect(tooLarge.headers["access-control-allow-origin"] == "*", "\(tooLarge.headers)")
        // In QuickBlox's error shape, as JSON, as every other refusal: the SDKs read each so.
        #expect(tooLarge.body == #"{"errors":["Request entity too large"]}"#, "\(tooLarge.body)")
        #expect(tooLarge.headers["content-type"] == "application/json; charset=utf-8")
        // Headers over the 16 KiB limit: libevent's 400.
        let cookie = "Cookie: " + String(repeating: "a", count: 20_000)
        let headers = try s.curl(ca + origin + ["-H", cookie, "\(s.sandbox.apiEndpoint)/chat/Dialog.json"])
        #expect(headers.status == 400, "\(headers.status) \(headers.stderr)")
        #expect(headers.headers["access-control-allow-origin"] == "*", "\(headers.headers)")
        #expect(headers.body == #"{"errors":["Bad request"]}"#, "\(headers.body)")
        try s.sandbox.waitForLog(containing: "rest: libevent refused a request with 413")
        // The sandbox's own answers are unchanged (a named origin echoed when restricted).
        let own = try s.curl(ca + origin + ["\(s.sandbox.apiEndpoint)/chat/Dialog.json"])
        #expect(own.status == 401 && own.headers["access-control-allow-origin"] == (https ? "http://localhost:3000" : "*"))
    }

    /// On a connection kept alive after an answer of ours (as a browser's is), too.
    @Test func aRefusalAfterAnotherAnswerOnTheSameConnectionHasTheHeader() throws {
        let s = try BlobSandbox()
        let (host, port) = s.sandbox.apiHostPort
        let body = [UInt8](repeating: 0x20, count: 2 << 20)
        let requests = "GET /chat/Dialog.json HTTP/1.1\r\nHost: \(host)\r\n\r\n"
            + "POST /chat/Message.json HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let (data, _) = try rawTCPExchange(host: host, port: port, bytes: Array(requests.utf8) + body, timeout: 30)
        let text = String(decoding: data, as: UTF8.self)
        let second = try #require(text.range(of: "HTTP/1.1 413"), "\(text.prefix(600))")
        let refusal = try parseHTTPResponse(Array(text[second.lowerBound...].utf8))
        #expect(refusal.status == 413)
        #expect(refusal.headers["access-control-allow-origin"] == "*", "\(refusal.headers)")
        #expect(refusal.body == #"{"errors":["Request entity too large"]}"#, "\(refusal.body)")
        #expect(text.hasPrefix("HTTP/1.1 401"), "our own answer came first: \(text.prefix(200))")
        #expect(try parseHTTPResponse(data).body == #"{"errors":["Token is required"]}"#, "and whole: \(text.prefix(400))")
    }

    @Test func aBadRequestLineIsAnsweredWithTheCORSHeader() throws {
        let s = try BlobSandbox()
        let (host, port) = s.sandbox.apiHostPort
        let (data, _) = try rawTCPExchange(host: host, port: port, bytes: Array("GET /users.json HTTP/9 nonsense\r\n\r\n".utf8))
        let answer = try parseHTTPResponse(data)
        #expect(answer.status == 400)
        #expect(answer.headers["access-control-allow-origin"] == "*", "\(answer.headers)")
        #expect(answer.body == #"{"errors":["Bad request"]}"#, "\(answer.body)")
        // Exactly one: the header is not repeated into the answer's other lines.
        #expect(String(decoding: data, as: UTF8.self).components(separatedBy: "Access-Control-Allow-Origin").count == 2)
    }
}
