import Foundation
import Testing
import TestSupport

/// A sandbox reached through fault proxies: one for REST, one for chat. The config
/// written for chatctl names the proxies; the sandbox's own config reaches it directly.
final class ProxiedSandbox {
    let sandbox: SandboxProcess
    let rest: FaultProxy
    let chat: FaultProxy
    let directory: TemporaryDirectory
    /// A config whose endpoints are the proxies.
    let configPath: String

    init(arguments: [String] = []) throws {
        sandbox = try SandboxProcess(arguments: arguments)
        let api = try #require(URL(string: sandbox.apiEndpoint)), chatURL = try #require(URL(string: sandbox.chatEndpoint))
        rest = try FaultProxy(upstreamPort: try #require(api.port))
        chat = try FaultProxy(upstreamPort: try #require(chatURL.port))
        directory = try TemporaryDirectory(prefix: "chatctl-faults")
        configPath = directory.file("proxied.json")
        try Self.writeConfig(sandbox.config, api: rest.url(scheme: "http"), chat: chat.url(scheme: "xmpp"), to: configPath)
    }

    static func writeConfig(_ base: [String: Any], api: String, chat: String, to path: String) throws {
        var config = base
        var endpoints = config["endpoints"] as? [String: Any] ?? [:]
        endpoints["api"] = api
        endpoints["chat"] = chat
        config["endpoints"] = endpoints
        config["chatDomain"] = config["chatDomain"] ?? "localhost"
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
    }

    deinit {
        rest.stop()
        chat.stop()
    }
}

/// Alice behind the proxies, bob straight at the sandbox, and their dialog, made by a
/// first message over REST.
struct ProxiedPair {
    let backend: ProxiedSandbox
    let alice: ChatUser
    let bob: ChatUser
    let token: String
    let dialog: String

    init(first: String = "first") throws {
        backend = try ProxiedSandbox()
        alice = try ChatUser("alice", configPath: backend.configPath)
        bob = try ChatUser("bob", sandbox: backend.sandbox)
        let sent = try alice.run(["send", "@" + bob.login, first])
        guard sent.status == 0 else { throw TestSupportError("the first message failed: \(sent.stderr)") }
        token = try backend.sandbox.createSession(login: bob.login, password: ChatUser.password)
        guard let dialog = try backend.sandbox.dialogIDs(token: token).first else { throw TestSupportError("no dialog") }
        self.dialog = dialog
    }

    /// The texts the server holds in their dialog, oldest first, that start with `prefix`.
    func stored(_ prefix: String) throws -> [String] {
        try backend.sandbox.allMessageTexts(token: token, dialogID: dialog).filter { $0.hasPrefix(prefix) }
    }
}

/// Faults injected between chatctl and its server, each shown to end the way
/// docs/faults.md's table says (exactly once, a bounded wait, the documented exit code).
@Suite(.serialized) struct FaultEndToEndTests {
    /// The one line a failing command writes on stderr (a hint may follow on its own line).
    static func firstLine(_ stderr: String) -> String {
        stderr.split(separator: "\n").first.map(String.init) ?? ""
    }

    // MARK: - Silence

    /// Login's first request (REST) or its chat connect meets a server that accepts and
    /// never answers: exit 75 within the timeout, never a hang.
    @Test(arguments: [("rest", "did not answer in time"), ("chat", "chat connect")])
    func loginAgainstABlackHoleExits75WithinItsTimeout(which: String, says: String) throws {
        let backend = try ProxiedSandbox()
        let proxy = which == "rest" ? backend.rest : backend.chat
        proxy.mode = .blackHole
        let cli = try ChatctlRunner(configPath: backend.configPath)
        let started = Date()
        let result = try cli.login(uniqueLogin("hole"), password: ChatUser.password, environment: ["CHATCTL_NETWORK_TIMEOUT": "1.5"], timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 75, "stderr: \(result.stderr)")
        #expect(Self.firstLine(result.stderr).contains(says), "stderr: \(result.stderr)")
        #expect(elapsed < 10, "took \(elapsed) s for a 1.5 s timeout")
        #expect(proxy.counters.connectionsAccepted >= 1)
    }

    @Test func chatClosedMidTLSHandshakeIsTemporary() throws {
        let backend = try ProxiedSandbox()
        backend.chat.mode = .closeMidTLSHandshake
        let cli = try ChatctlRunner(configPath: backend.configPath)
        let result = try cli.login(uniqueLogin("cut"), password: ChatUser.password, environment: ["CHATCTL_NETWORK_TIMEOUT": "5"], timeout: 30)
        #expect(result.status == 75, "stderr: \(result.stderr)")
        #expect(Self.firstLine(result.stderr).hasPrefix("chatctl: chat connect"), "stderr: \(result.stderr)")
        #expect(backend.chat.counters.clientHellos >= 1, "the handshake began and was cut")
    }

    // MARK: - Resets

    /// `send --lines` of `lines` through a chat proxy in `mode`: exit 0 after reconnecting
    /// by itself, every line stored once and in order, the outbox empty. Returns the resets.
    func sendLinesThrough(_ mode: FaultProxy.Mode, lines: [String]) throws -> Int {
        let pair = try ProxiedPair()
        pair.backend.chat.mode = mode
        let send = try pair.alice.run(["send", "@" + pair.bob.login, "--lines"], stdin: lines.joined(separator: "\n") + "\n", timeout: 300)
        #expect(send.status == 0, "reconnected by itself; stderr: \(send.stderr)")
        #expect(send.stderr.contains("chatctl: reconnected"), "stderr: \(send.stderr)")
        #expect(try pair.alice.run(["outbox", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let stored = try pair.stored("")
        #expect(stored == ["first"] + lines, "every line once, in order: \(stored.count) stored")
        return pair.backend.chat.counters.resets
    }

    /// Every chat connection is cut after 24 KB (a connect and a few dozen messages), so a
    /// stream of 200 lines meets several resets: `send --lines` reconnects each time, asks
    /// history which of the cut ones arrived, resends the rest, and ends with exit 0.
    @Test func sendLinesThroughRepeatedResetsDeliversEveryLineOnce() throws {
        let resets = try sendLinesThrough(.resetAfter(bytes: 24_000, once: false), lines: (0..<200).map { "reset line \($0)" })
        #expect(resets >= 3, "resets: \(resets)")
    }

    /// One reset in the middle of a large batch (5,000 lines, cut after 1 MB):
    /// the unacknowledged part is looked up in history and the rest resent under its ids.
    @Test func aResetInTheMiddleOfALargeBatchDeliversEveryLineOnce() throws {
        #expect(try sendLinesThrough(.resetAfter(bytes: 1_000_000, once: true), lines: (0..<5000).map { "cut line \($0)" }) == 1)
    }

    /// The chat server goes silent after a reset: `send --lines` tries a few times, each
    /// within the connect timeout, then exits 3 with the rest in the outbox; a flush once
    /// the server is back delivers each line once.
    @Test func sendLinesGivesUpReconnectingWithinItsBound() throws {
        let pair = try ProxiedPair()
        let (backend, alice, bob) = (pair.backend, pair.alice, pair.bob)
        let stored = { try pair.stored("held line ") }
        let lines = (0..<100).map { "held line \($0)" }
        let send = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe,
                                            environment: ["CHATCTL_NETWORK_TIMEOUT": "1.5"])
        try send.write(lines[..<50].joined(separator: "\n") + "\n")
        try waitUntil("the first 50 lines stored", timeout: 30) { try stored().count == 50 }
        backend.chat.mode = .blackHole
        backend.chat.resetAll()
        let started = Date()
        try send.write(lines[50...].joined(separator: "\n") + "\n")
        send.closeInput()
        let result = send.finish(timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("gave up reconnecting"), "stderr: \(result.stderr)")
        #expect(elapsed < 30, "gave up after \(elapsed) s")
        #expect(try stored() == Array(lines[..<50]))
        backend.chat.mode = .pass
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        #expect(try stored() == lines, "each line once, in order")
        #expect(try alice.run(["outbox", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    /// Three resets, each after a message heard live; what was sent while cut off comes
    /// from the gap fill. (This failed in about half the runs until "before" was dated a
    /// second before listen was ready: the gap fill re-reads that second, so "before" counted
    /// as news and made the sixth message; listen then exited at --count, it never went silent.)
    @Test func listenThroughResetsPrintsEveryMessageOnce() throws {
        let backend = try ProxiedSandbox()
        let alice = try ChatUser("alice", sandbox: backend.sandbox)
        let bob = try ChatUser("bob", configPath: backend.configPath)
        #expect(try alice.run(["send", "@" + bob.login, "before"]).status == 0)
        try Self.waitForTheNextSecond()
        let listener = try bob.cli.background(["listen", "--count", "6", "--json", "--timeout", "120s"])
        try listener.waitUntilListening()
        var expected: [String] = []
        for round in 0..<3 {
            let live = "live \(round)", gap = "gap \(round)"
            #expect(try alice.run(["send", "@" + bob.login, live]).status == 0)
            try listener.stdout.waitForLine("the line of \(live)", timeout: 30) { jsonObject($0)?["message"] as? String == live }
            let accepted = backend.chat.counters.connectionsAccepted
            backend.chat.resetAll()
            // Sent while the listener is cut off: the gap fill brings it, once.
            #expect(try alice.run(["send", "@" + bob.login, gap]).status == 0)
            try Self.waitForReconnect(of: listener, through: backend.chat, after: accepted)
            expected += [live, gap]
            try listener.stdout.waitForLine("the line of \(gap)", timeout: 30) { jsonObject($0)?["message"] as? String == gap }
        }
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let printed = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
        #expect(printed == expected, "each once, none lost; stderr: \(heard.stderr)")
        #expect(backend.chat.counters.resets == 3)
    }

    /// A reconnect's own session cut at every stage (TLS, SASL, bind, the first ping
    /// unanswered): each cut is noticed at once, never left to the keep-alive (60 s + 20 s).
    @Test func listenNoticesAResetAtEveryStageOfAReconnect() throws {
        let backend = try ProxiedSandbox()
        let alice = try ChatUser("alice", sandbox: backend.sandbox)
        let bob = try ChatUser("bob", configPath: backend.configPath)
        #expect(try alice.run(["send", "@" + bob.login, "before"]).status == 0)
        try Self.waitForTheNextSecond()
        // The bytes of one whole session (both ways), to cut the next ones part of the way in.
        let first = try bob.cli.background(["listen", "--verbose", "--json", "--timeout", "60s"])
        try first.waitUntilListening()
        // The last exchange of a session's start: the answer to its first ping (the ack barrier).
        _ = try first.stderr.waitForLine("the answer to the first ping", timeout: 10) { $0.contains("RECV: <iq id=\"chatctl-barrier-") }
        let session = backend.chat.counters
        first.signal(SIGTERM)
        _ = first.finish(timeout: 10)
        let wholeSession = session.bytesUpstream + session.bytesDownstream
        for percent in [15, 35, 55, 75, 90] {
            let listener = try bob.cli.background(["listen", "--json", "--timeout", "60s"])
            try listener.waitUntilListening()
            let before = backend.chat.counters
            // The reset ends this session; the reconnect's session is cut `percent` of the way in.
            backend.chat.mode = .resetAfter(bytes: wholeSession * percent / 100, once: true)
            backend.chat.resetAll()
            try backend.chat.wait(for: "the reconnect's session cut at \(percent) % (listen's stderr: \(listener.stderr.text))", timeout: 20) {
                $0.resets >= before.resets + 2
            }
            try Self.waitForReconnect(of: listener, through: backend.chat, after: before.connectionsAccepted + 1)
            let text = "after a cut at \(percent) %"
            #expect(try alice.run(["send", "@" + bob.login, text]).status == 0)
            try listener.stdout.waitForLine("the line of '\(text)' (stderr: \(listener.stderr.text))", timeout: 15) {
                jsonObject($0)?["message"] as? String == text
            }
            listener.signal(SIGTERM)
            _ = listener.finish(timeout: 10)
        }
    }

    /// date_sent counts whole seconds and a gap fill re-reads the second listen became
    /// ready in: what a test sends before listening must be dated a second earlier.
    static func waitForTheNextSecond() throws {
        let now = Int(Date().timeIntervalSince1970)
        try waitUntil("the next second", timeout: 5) { Int(Date().timeIntervalSince1970) > now }
    }

    /// Waits for the listener's next chat connection; fails at once, with its stderr as it
    /// is then, if it exited instead.
    static func waitForReconnect(of listener: ChildProcess, through proxy: FaultProxy, after accepted: Int) throws {
        try waitUntil("listen to reconnect", timeout: 30) { proxy.counters.connectionsAccepted > accepted || !listener.isRunning }
        try #require(listener.isRunning, "listen exited instead of reconnecting; stdout: \(listener.stdout.text) stderr: \(listener.stderr.text)")
    }

    // MARK: - Server errors

    static func storm(_ status: Int, _ reason: String, retryAfter: String?) -> [UInt8] {
        var headers = [("Content-Type", "application/json"), ("Connection", "close")]
        if let retryAfter { headers.append(("Retry-After", retryAfter)) }
        return ScriptedHTTPServer.response(status, reason, headers: headers, body: Array("{\"errors\":[\"\(reason)\"]}".utf8))
    }

    @Test(arguments: [(429, "Too Many Requests"), (503, "Service Unavailable")])
    func aStormWithoutRetryAfterIsThreeAttemptsThenExit75(status: Int, reason: String) throws {
        let backend = try ProxiedSandbox()
        let alice = try ChatUser("alice", configPath: backend.configPath)
        backend.rest.mode = .answerHTTP(response: Self.storm(status, reason, retryAfter: nil), forward: false)
        let result = try alice.run(["dialogs"])
        #expect(result.status == 75, "stderr: \(result.stderr)")
        #expect(Self.firstLine(result.stderr).contains("(\(status) from GET"), "stderr: \(result.stderr)")
        #expect(backend.rest.counters.answered == 3, "three attempts in all")
    }

    @Test func aStormHonoursRetryAfter() throws {
        let backend = try ProxiedSandbox()
        let alice = try ChatUser("alice", configPath: backend.configPath)
        backend.rest.mode = .answerHTTP(response: Self.storm(429, "Too Many Requests", retryAfter: "1"), forward: false)
        let started = Date()
        let result = try alice.run(["dialogs"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 75, "stderr: \(result.stderr)")
        #expect(backend.rest.counters.answered == 3)
        #expect(elapsed >= 2, "two waits of Retry-After: 1 (took \(elapsed) s)")
        #expect(elapsed < 10)
    }

    @Test func aMessageSentIntoAStormStaysQueuedAndIsStoredOnce() throws {
        let backend = try ProxiedSandbox()
        let alice = try ChatUser("alice", configPath: backend.configPath)
        let bob = try ChatUser("bob", sandbox: backend.sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "calm"]).status == 0)
        // The server stores the message, then every answer is a 503: chatctl cannot
        // know it arrived.
        backend.rest.mode = .answerHTTP(response: Self.storm(503, "Service Unavailable", retryAfter: "0"), forward: true)
        let send = try alice.run(["send", "@" + bob.login, "into the storm"])
        #expect([3, 75].contains(send.status), "stderr: \(send.stderr)")
        let answered = backend.rest.counters.answered
        #expect(answered >= 1 && answered <= 12, "bounded: \(answered) answers")
        let queued = try alice.run(["outbox", "--json"])
        #expect(queued.stdout.contains("into the storm"), "the outbox keeps it: \(queued.stdout)")
        backend.rest.mode = .pass
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        let token = try backend.sandbox.createSession(login: bob.login, password: ChatUser.password)
        let dialog = try #require(try backend.sandbox.dialogIDs(token: token).first)
        let stored = try backend.sandbox.messageTexts(token: token, dialogID: dialog)
        #expect(stored.filter { $0 == "into the storm" }.count == 1, "once on the server: \(stored)")
    }
}
