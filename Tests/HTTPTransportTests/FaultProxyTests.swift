import Foundation
import Testing
import HTTPTransport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The fault proxy itself (Tests/TestSupport/FaultProxy.swift): each mode does what the
/// fault tests rely on, against an echo server and a scripted HTTP server.
@Suite struct FaultProxyTests {
    /// Accepts connections and writes back every byte until the client closes.
    final class EchoServer: Sendable {
        let listener: LoopbackListener
        init() throws {
            listener = try LoopbackListener()
            Thread.detachNewThread { [listener] in
                while true {
                    let fd = accept(listener.fd, nil, nil)
                    if fd < 0 { listener.close(); return }
                    Thread.detachNewThread {
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while true {
                            let n = recv(fd, &buffer, buffer.count, 0)
                            if n <= 0 { break }
                            _ = buffer.withUnsafeBytes { send(fd, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }
                        }
                        Glibc.close(fd)
                    }
                }
            }
        }
        var port: Int { listener.port }
        func stop() { listener.wake() }
    }

    static func okServer() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { _, connection in
            connection.send(ScriptedHTTPServer.response(200, "OK", body: Array("{\"ok\":true}".utf8)))
        }
    }

    @Test func passForwardsBothWaysAndCounts() throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let response = try client.perform(HTTPRequest(method: .get, url: proxy.url(scheme: "http") + "/x", timeout: 5))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"ok\":true}")
        // The client may read the answer a moment before the proxy counts it.
        let counters = try proxy.wait(for: "bytes both ways") { $0.bytesUpstream > 0 && $0.bytesDownstream > 0 }
        #expect(counters.connectionsAccepted == 1)
        #expect(server.requests.map(\.target) == ["/x"])
    }

    @Test func resetAfterOnceCutsOneConnectionThenPasses() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port, mode: .resetAfter(bytes: 100, once: true))
        defer { proxy.stop() }
        let first = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        first.send([UInt8](repeating: 7, count: 80))
        first.send([UInt8](repeating: 8, count: 80))
        let cut = first.readUntilClosed(timeout: 5)
        #expect(cut.closedByPeer)
        #expect(cut.data.count < 100)
        try proxy.wait(for: "one reset") { $0.resets == 1 }
        #expect(proxy.mode == .pass)

        let second = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        second.send([UInt8](repeating: 9, count: 300))
        second.shutdownWrite()
        let whole = second.readUntilClosed(timeout: 5)
        #expect(whole.closedByPeer)
        #expect(whole.data == [UInt8](repeating: 9, count: 300))
        #expect(proxy.counters.resets == 1)
    }

    @Test func resetAfterEveryConnectionKeepsResetting() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port, mode: .resetAfter(bytes: 10, once: false))
        defer { proxy.stop() }
        for round in 1...3 {
            let connection = try TCPConnection(host: "127.0.0.1", port: proxy.port)
            connection.send([UInt8](repeating: 1, count: 50))
            #expect(connection.readUntilClosed(timeout: 5).closedByPeer)
            try proxy.wait(for: "reset \(round)") { $0.resets == round }
        }
    }

    @Test func resetAllEndsOpenConnections() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port)
        defer { proxy.stop() }
        let connection = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        connection.send([1, 2, 3])
        try proxy.wait(for: "the echo back") { $0.bytesDownstream == 3 }
        proxy.resetAll()
        let rest = connection.readUntilClosed(timeout: 5)
        #expect(rest.closedByPeer)
        // The client may see the reset a moment before the proxy counts the link closed.
        let counters = try proxy.wait(for: "no open connection") { $0.open == 0 }
        #expect(counters.resets == 1)
    }

    @Test func blackHoleAcceptsAndNeverAnswers() throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port, mode: .blackHole)
        defer { proxy.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let started = Date()
        let error = try #require(throws: HTTPError.self) {
            try client.perform(HTTPRequest(method: .get, url: proxy.url(scheme: "http") + "/x", timeout: 0.5))
        }
        #expect(error.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(proxy.counters.connectionsAccepted == 1)
        #expect(proxy.counters.bytesUpstream == 0)
        #expect(server.connectionCount == 0)
    }

    @Test func delayHoldsEveryChunk() throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port, mode: .delay(milliseconds: 300))
        defer { proxy.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let started = Date()
        let response = try client.perform(HTTPRequest(method: .get, url: proxy.url(scheme: "http") + "/x", timeout: 5))
        #expect(response.status == 200)
        // Once on the way up, once on the way down.
        #expect(Date().timeIntervalSince(started) >= 0.55)
    }

    @Test func throttleLimitsTheRate() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port, mode: .throttle(bytesPerSecond: 20_000))
        defer { proxy.stop() }
        let connection = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        let started = Date()
        connection.send([UInt8](repeating: 5, count: 10_000))
        connection.shutdownWrite()
        let echoed = connection.readUntilClosed(timeout: 10)
        #expect(echoed.data.count == 10_000)
        // 10 KB at 20 KB/s is half a second each way, overlapping: at least ~0.45 s.
        #expect(Date().timeIntervalSince(started) >= 0.45)
    }

    @Test func closeMidTLSHandshakeForwardsTheHelloThenCloses() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port, mode: .closeMidTLSHandshake)
        defer { proxy.stop() }
        let connection = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        // Plain bytes first (a STARTTLS stream's XML) pass both ways.
        connection.send(Array("<stream>".utf8))
        try proxy.wait(for: "the plain bytes echoed") { $0.bytesDownstream == 8 }
        // A handshake record goes up; the server's answer never comes back.
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x04, 1, 2, 3, 4]
        connection.send(hello)
        let after = connection.readUntilClosed(timeout: 5)
        #expect(after.closedByPeer)
        #expect(after.data == Array("<stream>".utf8), "the plain echo only, nothing of the server's answer to the hello")
        let counters = proxy.counters
        #expect(counters.clientHellos == 1)
        #expect(counters.bytesUpstream == 8 + hello.count)
        #expect(counters.bytesDownstream == 8)
    }

    @Test(arguments: [false, true])
    func answerHTTPRepliesItselfAndForwardsWhenAsked(forward: Bool) throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let storm = ScriptedHTTPServer.response(503, "Service Unavailable", headers: [("Retry-After", "0"), ("Connection", "close")],
                                               body: Array("{\"errors\":[\"busy\"]}".utf8))
        let proxy = try FaultProxy(upstreamPort: server.port, mode: .answerHTTP(response: storm, forward: forward))
        defer { proxy.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        for _ in 1...2 {
            let response = try client.perform(HTTPRequest(method: .post, url: proxy.url(scheme: "http") + "/chat/Message.json",
                                                          body: Array("{\"a\":1}".utf8), timeout: 5))
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "0")
        }
        #expect(proxy.counters.answered == 2)
        if forward {
            try waitUntil("the server to get both requests", timeout: 5) { server.requests.count == 2 }
            #expect(server.requests.allSatisfy { $0.body == Array("{\"a\":1}".utf8) })
        } else {
            #expect(server.requests.isEmpty)
        }
        proxy.mode = .pass
        let passed = try client.perform(HTTPRequest(method: .get, url: proxy.url(scheme: "http") + "/y", timeout: 5))
        #expect(passed.status == 200)
    }

    @Test func stopClosesThePortAndEveryConnection() throws {
        let echo = try EchoServer()
        defer { echo.stop() }
        let proxy = try FaultProxy(upstreamPort: echo.port)
        let connection = try TCPConnection(host: "127.0.0.1", port: proxy.port)
        connection.send([1])
        try proxy.wait(for: "the echo") { $0.bytesDownstream == 1 }
        proxy.stop()
        #expect(connection.readUntilClosed(timeout: 5).closedByPeer)
        #expect(!TCPConnection.canConnect(port: proxy.port))
        #expect(proxy.counters.open == 0)
        proxy.stop()   // twice is fine
    }

    @Test func anotherLoopbackAddressListens() throws {
        let server = try Self.okServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port, host: "127.0.0.2")
        defer { proxy.stop() }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let response = try client.perform(HTTPRequest(method: .get, url: "http://127.0.0.2:\(proxy.port)/z", timeout: 5))
        #expect(response.status == 200)
    }
}
