import Foundation
import Testing
import TestSupport

/// A real sandbox under hostile peers (docs/faults.md, "The sandbox"):
/// after each, a normal client still logs in (REST and XMPP) within seconds and the
/// sandbox's resident memory is back near where it was.
final class HostileTarget {
    static let password = "calm-password-1"
    let sandbox: SandboxProcess
    let calmLogin: String
    let calmId: Int
    private(set) var baselineKiB = 0
    /// Room for allocator slack, not for what a hostile peer could make it hold (100 MB bodies).
    static let memoryMarginKiB = 24 * 1024

    init(_ arguments: [String] = []) throws {
        sandbox = try SandboxProcess(arguments: arguments)
        calmLogin = "calm\(UInt32.random(in: 0...UInt32.max))"
        calmId = try signUpUser(on: sandbox, login: calmLogin, password: Self.password)
        // Warm up every path a normal client takes before measuring.
        for _ in 0..<3 { try normalClientWorks() }
        baselineKiB = try #require(sandbox.residentKiB)
    }

    var chatPort: Int { URLComponents(string: sandbox.chatEndpoint)?.port ?? 0 }

    /// A REST login and an XMPP login with a message sent, each answered within `within` seconds.
    func normalClientWorks(within: Double = 3) throws {
        let started = Date()
        _ = try sandbox.createSession(login: calmLogin, password: Self.password)
        let client = try RawXMPPClient(port: chatPort)
        client.send(XMPPTestConstants.header)
        try #require(client.read(untilContains: "</stream:features>", timeout: within))
        client.send(XMPPTestConstants.plain("\(calmId)-\(sandbox.applicationId)", Self.password))
        try #require(client.read(untilContains: "<success", timeout: within), "SASL answered: \(client.received)")
        #expect(Date().timeIntervalSince(started) < within * 2)
    }

    /// The sandbox is healthy again: serves a normal client promptly, its memory near the baseline.
    func expectRecovered(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try normalClientWorks()
        // Under make sanitize the sandbox is built with a sanitizer, whose quarantine and
        // shadow memory keep freed memory resident by design: no baseline holds there.
        guard ProcessInfo.processInfo.environment["CHATCTL_SANITIZER"] == nil else { return }
        var now = 0
        // Closed connections are freed on the loop's next turns: poll, with a deadline.
        let settled = (try? waitUntil("memory back near the baseline", timeout: 5) {
            now = self.sandbox.residentKiB ?? .max
            return now <= self.baselineKiB + Self.memoryMarginKiB
        }) != nil
        #expect(settled, "after \(what): VmRSS \(now) KiB, baseline \(baselineKiB) KiB", sourceLocation: sourceLocation)
    }

    func streamError(_ condition: String) -> String { "<\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>" }
}

@Suite struct HostileHTTPPeerTests {
    @Test func aHundredMegabyteBodyIsRefusedUnread() throws {
        let target = try HostileTarget()
        let (host, port) = target.sandbox.apiHostPort
        let connection = try TCPConnection(host: host, port: port)
        let size = 100 * 1024 * 1024
        connection.send(Array("POST /session.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\n\r\n".utf8))
        // The answer comes on the headers alone; what follows of the body is never read.
        connection.send([UInt8](repeating: 0x61, count: 256 * 1024))
        let (data, closed) = connection.readUntilClosed(timeout: 10)
        #expect((try? parseHTTPResponse(data))?.status == 413, "got \(String(decoding: data.prefix(120), as: UTF8.self))")
        #expect(closed)
        try target.expectRecovered("a 100 MB body")
    }

    @Test func sixtyFourKilobytesOfHeadersAreRefused() throws {
        let target = try HostileTarget()
        let (host, port) = target.sandbox.apiHostPort
        var head = "GET /session.json HTTP/1.1\r\nHost: x\r\n"
        for i in 0..<1024 { head += "X-Filler-\(i): " + String(repeating: "h", count: 48) + "\r\n" }
        let (data, closed) = try rawTCPExchange(host: host, port: port, bytes: Array((head + "\r\n").utf8), timeout: 10)
        let status = (try? parseHTTPResponse(data))?.status
        #expect(status.map { (400..<500).contains($0) } ?? closed, "a 4xx or a closed connection, got \(String(describing: status))")
        try target.expectRecovered("64 KB of headers")
    }

    @Test func garbageRequestLinesGetA400OrAClose() throws {
        let target = try HostileTarget()
        let (host, port) = target.sandbox.apiHostPort
        let garbage = ["\u{0}\u{1}\u{2}\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "G E T / HTTP/1.1\r\n\r\n",
                       String(repeating: "A", count: 70_000) + "\r\n\r\n", "GET /" + String(repeating: "%", count: 9000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]
        for payload in garbage {
            let started = Date()
            let (data, closed) = try rawTCPExchange(host: host, port: port, bytes: Array(payload.utf8), timeout: 10)
            let status = (try? parseHTTPResponse(data))?.status
            // 501 is HTTP's answer to a method it does not know ("G").
            #expect(status.map { (400..<500).contains($0) || $0 == 501 } ?? closed, "\(payload.prefix(20).debugDescription): \(String(describing: status))")
            #expect(closed && Date().timeIntervalSince(started) < 5, "\(payload.prefix(20).debugDescription): the connection is closed at once")
        }
        try target.expectRecovered("garbage request lines")
    }

    /// Slowloris: headers a byte at a time, never finished. libevent's per-read timeout never
    /// fires (the default 30 s stays); the whole-request deadline (here 2 s) does.
    @Test func aSlowlorisIsDroppedAtTheRequestDeadline() throws {
        let target = try HostileTarget(["--request-timeout", "2"])
        let (host, port) = target.sandbox.apiHostPort
        let slow = try TCPConnection(host: host, port: port)
        let started = Date()
        let head = Array("GET /session.json HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)
        var dropped = false
        var sent = 0
        // One byte each 100 ms (the attack's pace) until the sandbox hangs up, for 15 s at most.
        while Date().timeIntervalSince(started) < 15 {
            if slow.send([sent < head.count ? head[sent] : 0x61]) == 0 || slow.isClosedByPeer() { dropped = true; break }
            sent += 1
            var pfd = pollfd(fd: slow.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0, slow.isClosedByPeer() { dropped = true; break }
        }
        let took = Date().timeIntervalSince(started)
        #expect(dropped, "still connected after \(took) s")
        #expect(took < 6, "dropped after \(took) s; the deadline is 2 s")
        try target.expectRecovered("a slowloris")
    }

    /// Ten wrong passwords in a minute, then 429 with Retry-After for REST and
    /// temporary-auth-failure for SASL, even for the right password; others are unaffected,
    /// and a session token of that user still opens a chat.
    @Test func repeatedWrongPasswordsAreRateLimited() throws {
        let target = try HostileTarget()
        let victim = "victim\(UInt32.random(in: 0...UInt32.max))", password = "right-password-1"
        let victimId = try signUpUser(on: target.sandbox, login: victim, password: password)
        let token = try target.sandbox.createSession(login: victim, password: password)
        func logIn(_ secret: String) throws -> SandboxHTTPResponse {
            let params = SandboxSigning.sessionParameters(applicationId: target.sandbox.applicationId, authKey: target.sandbox.authKey,
                                                           secret: target.sandbox.authSecret,
                                                           extra: [("user[login]", victim), ("user[password]", secret)], algorithm: .sha1)
            return try target.sandbox.response(method: "POST", path: "/session.json", params: params)
        }
        for attempt in 1...10 { #expect(try logIn("wrong-\(attempt)").status == 401) }
        let limited = try logIn(password)
        #expect(limited.status == 429, "the right password too, once limited: \(limited.body)")
        let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
        #expect((1...60).contains(retryAfter))
        #expect(limited.body.contains("errors"))

        let chat = try RawXMPPClient(port: target.chatPort)
        chat.send(XMPPTestConstants.header)
        #expect(chat.read(untilContains: "</stream:features>"))
        chat.send(XMPPTestConstants.plain("\(victimId)-\(target.sandbox.applicationId)", password))
        #expect(chat.read(untilContains: "</failure>"))
        #expect(chat.received.contains("<temporary-auth-failure/>"), "got \(chat.received)")
        // A session token is no guess: it still opens the chat.
        chat.send(XMPPTestConstants.plain("\(victimId)-\(target.sandbox.applicationId)", token))
        #expect(chat.read(untilContains: "<success"), "got \(chat.received)")
        try target.expectRecovered("repeated wrong passwords")
    }
}

@Suite struct HostileXMPPPeerTests {
    private func openedStream(_ target: HostileTarget) throws -> RawXMPPClient {
        let client = try RawXMPPClient(port: target.chatPort)
        client.send(XMPPTestConstants.header)
        try #require(client.read(untilContains: "</stream:features>"))
        return client
    }

    @Test func billionLaughsIsRestrictedXMLNotExpanded() throws {
        let target = try HostileTarget()
        let client = try RawXMPPClient(port: target.chatPort)
        var laughs = "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
        for level in 1...9 { laughs += "<!ENTITY lol\(level) '" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "'>" }
        client.send(laughs + "]><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='localhost'>&lol9;")
        #expect(client.waitForClose(timeout: 5))
        #expect(client.received.contains(target.streamError("restricted-xml")), "got \(client.received)")
        try target.expectRecovered("billion laughs")
    }

    @Test func nestingTenThousandDeepIsAPolicyViolation() throws {
        let target = try HostileTarget()
        let client = try openedStream(target)
        client.send(String(repeating: "<a>", count: 10_000))
        #expect(client.waitForClose(timeout: 5))
        #expect(client.received.contains(target.streamError("policy-violation")), "got \(client.received.suffix(300))")
        try target.expectRecovered("deep nesting")
    }

    @Test func aOneMegabyteStanzaIsAPolicyViolation() throws {
        let target = try HostileTarget()
        let client = try openedStream(target)
        client.send("<message to='1-1@localhost'><body>" + String(repeating: "m", count: 1024 * 1024) + "</body></message>")
        #expect(client.waitForClose(timeout: 5))
        #expect(client.received.contains(target.streamError("policy-violation")), "got \(client.received.suffix(300))")
        try target.expectRecovered("a 1 MB stanza")
    }

    /// 500 connections from one address (127.0.0.2) that never log in: the newest 32 are kept
    /// (until the pre-auth timeout), each older one closed as a newer one comes; a client from
    /// elsewhere still logs in.
    @Test func anUnauthenticatedFloodIsCappedPerAddress() throws {
        let target = try HostileTarget()
        var flood: [TCPConnection] = []
        for _ in 0..<500 { flood.append(try TCPConnection(host: "127.0.0.1", port: target.chatPort, source: "127.0.0.2")) }
        try target.normalClientWorks()
        var open = flood.count
        try waitUntil("all but 32 flood connections closed", timeout: 15) {
            open = flood.filter { !$0.isClosedByPeer() }.count
            return open <= 32
        }
        #expect(open == 32, "the cap keeps exactly 32 waiting")
        flood = []
        try target.expectRecovered("500 unauthenticated connections")
    }
}
