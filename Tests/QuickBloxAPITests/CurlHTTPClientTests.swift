import Foundation
import Testing
import HTTPTransport
import TestSupport

@Suite struct CurlHTTPClientTests {
    @Test func exchangesWithLocalServerOverOneConnection() throws {
        let server = try ScriptedHTTPServer { request, connection in
            connection.send(ScriptedHTTPServer.response(201, "Created", headers: [
                ("Content-Type", "application/json"), ("QB-Token-ExpirationDate", "2018-07-11 17:33:09 +0000"),
                ("QB-Token", "server-token-xyz"),
            ], body: Array("{\"echo\":\(request.body.count)}".utf8)))
        }
        defer { server.stop() }
        let log = ResultBox<String>()
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2, verboseLog: { log.append($0) }))
        let base = "http://127.0.0.1:\(server.port)"
        let payload = Array(#"{"login":"alice","password":"hunter2-pass"}"#.utf8)

        let response = try client.perform(HTTPRequest(
            method: .post, url: base + "/session.json?token=query-secret",
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("QB-Token", "client-token-abc")],
            body: payload, timeout: 5))
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"echo\":\(payload.count)}")
        #expect(response.header("qb-token-expirationdate") == "2018-07-11 17:33:09 +0000")
        #expect(response.header("Content-Type") == "application/json")

        let deleted = try client.perform(HTTPRequest(method: .delete, url: base + "/login.json", timeout: 5))
        #expect(deleted.status == 201)

        let received = server.requests
        #expect(received.count == 2)
        #expect(received.first.map { "\($0.method) \($0.target)" } == "POST /session.json?token=query-secret")
        #expect(received.first?.header("QB-Token") == "client-token-abc")
        #expect(received.first?.body == payload)
        #expect(received.first?.header("User-Agent") == "chatctl")
        #expect(received.last.map { "\($0.method) \($0.target)" } == "DELETE /login.json")
        // The easy handle is reused, so the connection is kept alive.
        #expect(server.connectionCount == 1)

        let lines = log.all
        #expect(lines.contains("> POST \(base)/session.json?token=<redacted>"))
        #expect(lines.contains("> QB-Token: <redacted>"))
        #expect(lines.contains("< QB-Token: <redacted>"))
        #expect(lines.contains("< QB-Token-ExpirationDate: 2018-07-11 17:33:09 +0000"))
        #expect(lines.contains { $0.hasPrefix("< 201 in ") && $0.hasSuffix(" ms") })
        let joined = lines.joined(separator: "\n")
        for secret in ["client-token-abc", "server-token-xyz", "query-secret", "hunter2"] {
            #expect(!joined.contains(secret), "verbose log leaked \(secret)")
        }
    }

    @Test func connectionRefusedFailsFastAsCannotConnect() throws {
        let closedPort = try LoopbackListener(listening: false)
        defer { closedPort.close() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 5))
        let started = Date()
        let error = try #require(throws: HTTPError.self) {
            try client.perform(HTTPRequest(method: .get, url: "http://127.0.0.1:\(closedPort.port)/session.json?token=abc", timeout: 10))
        }
        #expect(error.kind == .cannotConnect)
        #expect(error.url == "http://127.0.0.1:\(closedPort.port)/session.json")
        #expect(!error.detail.isEmpty)
        #expect(!error.description.contains("abc"))
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func silentServerTimesOutWithinRequestTimeout() throws {
        // Listening but never accepting: the kernel completes the handshake, nobody answers.
        let silent = try LoopbackListener()
        defer { silent.close() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 5))
        let started = Date()
        let error = try #require(throws: HTTPError.self) {
            try client.perform(HTTPRequest(method: .get, url: "http://127.0.0.1:\(silent.port)/users.json", timeout: 0.5))
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(error.kind == .timedOut)
        #expect(elapsed >= 0.4 && elapsed < 3)
    }

    @Test func httpsToAPlainServerIsTLSError() throws {
        // The thread alone closes the listener, after its one accept(), so the fd
        // number cannot be reused under it.
        let plain = try LoopbackListener()
        Thread.detachNewThread {
            let accepted = accept(plain.fd, nil, nil)
            plain.close()
            guard accepted >= 0 else { return }
            let connection = TCPConnection(adopting: accepted)
            connection.send(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
            // Open until curl gives up on the handshake and hangs up: it reads the answer, not a reset.
            _ = connection.readUntilClosed(timeout: 10)
        }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let error = try #require(throws: HTTPError.self) {
            try client.perform(HTTPRequest(method: .get, url: "https://127.0.0.1:\(plain.port)/session.json", timeout: 3))
        }
        #expect(error.kind == .tls)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "http://", "not a url"])
    func badURLsAreInvalidURL(url: String) throws {
        let client = try CurlHTTPClient(options: HTTPClientOptions())
        let error = try #require(throws: HTTPError.self) { try client.perform(HTTPRequest(method: .get, url: url, timeout: 2)) }
        #expect(error.kind == .invalidURL)
    }

    @Test func redactorMasksSensitiveNames() {
        #expect(SecretRedactor.url("http://h/blobs/u?token=abc&x=1&user%5Bpassword%5D=p") == "http://h/blobs/u?token=<redacted>&x=1&user%5Bpassword%5D=<redacted>")
        #expect(SecretRedactor.header(HTTPHeader("QB-Token", "t")).value == "<redacted>")
        #expect(SecretRedactor.header(HTTPHeader("QB-Account-Key", "k")).value == "<redacted>")
        #expect(SecretRedactor.header(HTTPHeader("QB-Token-ExpirationDate", "2016-04-11 16:29:04 UTC")).value == "2016-04-11 16:29:04 UTC")
        #expect(SecretRedactor.header(HTTPHeader("Content-Type", "application/json")).value == "application/json")
        #expect(SecretRedactor.urlWithoutQuery("http://h/p.json?token=abc#f") == "http://h/p.json")
    }
}

/// A body far larger than any JSON answer is refused as it comes, never buffered whole.
@Suite struct OversizedAnswerTests {
    @Test(arguments: [true, false])
    func aHundredMegabyteBodyIsRefusedAfterTheLimit(announced: Bool) throws {
        let sent = ResultBox<Int>()
        let server = try ScriptedHTTPServer { _, connection in
            let total = 100 << 20
            let head = announced ? "HTTP/1.1 200 OK\r\nContent-Length: \(total)\r\n\r\n"
                                 : "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"   // until the connection ends
            connection.send(head)
            let chunk = [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20)
            var count = 0
            while count < total {
                if connection.sendCounting(chunk) < chunk.count { break }
                count += chunk.count
            }
            sent.append(count)
            connection.close()
        }
        defer { server.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let error = try #require(throws: HTTPError.self) {
            try client.perform(HTTPRequest(method: .get, url: server.baseURL() + "/chat/Message.json", timeout: 20,
                                           maxResponseBytes: 1 << 20))
        }
        #expect(error.kind == .responseTooLarge)
        #expect(error.detail == "the answer is larger than 1 MiB; refused")
        // The server could not push all of it: the client stopped reading.
        let pushed = try #require(sent.wait(count: 1, timeout: 20).first)
        #expect(pushed < 100 << 20)
    }
}

