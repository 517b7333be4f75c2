// A flood of connections that never log in (or never finish a request), from the
// address every local client shares, closes its own oldest connections, never the next
// client's: chatctl logs in and sends over chat while the flood's sockets are still open.
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct PreAuthFloodEndToEndTests {
    /// The storage endpoint's port, from the sandbox's `storage: http://127.0.0.1:PORT, …` log line.
    static func storagePort(of sandbox: SandboxProcess) throws -> Int {
        let line = try sandbox.waitForLog(containing: "storage: http")
        guard let match = line.firstMatch(of: /storage: https?:\/\/[^ ,]*:(\d+)/), let port = Int(match.1) else {
            throw TestSupportError("no storage port in \(line)")
        }
        return port
    }

    static func port(of endpoint: String) throws -> Int {
        try #require(URL(string: endpoint)?.port)
    }

    /// `count` connections to `port`, each having sent `opening` and nothing more.
    static func flood(_ count: Int, port: Int, opening: String) throws -> [TCPConnection] {
        try (0..<count).map { _ in
            let connection = try TCPConnection(host: "127.0.0.1", port: port)
            connection.send(Array(opening.utf8))
            return connection
        }
    }

    @Test func twoHundredHalfOpenConnectionsOnEachPortLockNobodyOut() throws {
        // The flood's sockets must outlive the test's own steps: no timeout ends them first.
        let sandbox = try SandboxProcess(arguments: ["--request-timeout", "120", "--http-timeout", "120", "--auth-timeout", "120",
                                                          "--ws-port", "0"])
        let bob = try ChatUser("bob", sandbox: sandbox)
        let rest = try Self.port(of: sandbox.apiEndpoint), chat = try Self.port(of: sandbox.chatEndpoint)
        let storage = try Self.storagePort(of: sandbox)
        let webSocket = try Self.port(of: try #require((sandbox.config["endpoints"] as? [String: Any])?["chatWebSocket"] as? String))

        let floods = [
            ("REST", try Self.flood(200, port: rest, opening: "GET /session.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")),
            ("storage", try Self.flood(200, port: storage, opening: "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n")),
            ("WebSocket", try Self.flood(200, port: webSocket, opening: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")),
            ("chat", try Self.flood(200, port: chat, opening:
                "<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")),
        ]
        // Each port keeps the newest 32 (the default cap per address) and closed the oldest.
        var closed: [String: Set<Int>] = [:]
        for (port, connections) in floods {
            try waitUntil("\(port): the flood's oldest 168 closed", timeout: 30) {
                for (index, connection) in connections.enumerated() where closed[port, default: []].contains(index) == false {
                    if connection.isClosedByPeer() { closed[port, default: []].insert(index) }
                }
                return closed[port, default: []].count >= 168
            }
            #expect(closed[port] == Set(0..<168), "\(port): the oldest are the ones closed")
        }

        let alice = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin("alice")
        let loggedIn = try alice.login(login, password: ChatUser.password, timeout: 60)
        #expect(loggedIn.status == 0, "stderr: \(loggedIn.stderr)")
        let sent = try alice.run(["send", "@" + bob.login, "--via", "chat", "through the flood"])
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        try bob.waitUntilServerHas("through the flood", on: sandbox)

        // The storage endpoint answers a whole request too.
        let download = try TCPConnection(host: "127.0.0.1", port: storage)
        download.send(Array("GET /nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let answer = download.readUntilClosed(timeout: 30)
        #expect(String(decoding: answer.data, as: UTF8.self).hasPrefix("HTTP/1.1 "))

        // A WebSocket client upgrades and gets its stream's features.
        let page = try WebSocketTestClient(port: webSocket)
        #expect(page.status == 101)
        page.sendText("<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='localhost' version='1.0'/>")
        #expect(page.receiveTexts(until: { $0.contains("features") }).matched)

        // And all the while the flood's newest sockets stayed open.
        for (port, connections) in floods {
            let open = connections.filter { !$0.isClosedByPeer() }.count
            #expect(open >= 20, "\(port): \(open) of the flood still open")
        }

        // Each port tells its flood in a few lines, by one rule: the first eviction and the hundredth
        // (then each later newcomer that makes room is the first of a run of its own).
        let told = sandbox.stderr.split(separator: "\n").filter { $0.contains("dropping the oldest") || $0.contains("closing the oldest") }
        for prefix in ["rest: ", "storage: ", "ws: ", "xmpp: "] {
            let counts = told.filter { $0.contains(prefix) }.map { $0.split(separator: "(").last.map(String.init) ?? "" }
            #expect(counts.prefix(2) == ["1 so far)", "100 so far)"] && counts.count < 10 && !counts.contains("168 so far)"),
                    "\(prefix)\(counts)")
        }
    }

    @Test func aChatStreamThatNeverAuthenticatesIsClosedAfterTheAuthTimeout() throws {
        let sandbox = try SandboxProcess(arguments: ["--auth-timeout", "0.5"])
        let stream = try TCPConnection(host: "127.0.0.1", port: try Self.port(of: sandbox.chatEndpoint))
        stream.send(Array("<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>".utf8))
        let ended = stream.readUntilClosed(timeout: 30)
        #expect(ended.closedByPeer)
        #expect(String(decoding: ended.data, as: UTF8.self).contains("connection-timeout"))
    }
}
