import Foundation
import Testing
import TestSupport

/// A logged-in chatctl user with its own state directory.
struct ChatUser {
    static let password = "messaging-pass-1"
    let login: String
    let cli: ChatctlRunner
    let id: Int

    init(_ prefix: String, sandbox: SandboxProcess) throws {
        try self.init(prefix, configPath: sandbox.configPath)
    }

    init(_ prefix: String, configPath: String) throws {
        login = uniqueLogin(prefix)
        cli = try ChatctlRunner(configPath: configPath)
        let result = try cli.login(login, password: Self.password, extra: ["--no-chat", "--json"])
        guard result.status == 0, let user = jsonObject(result.stdout)?["user"] as? [String: Any], let id = user["id"] as? Int else {
            throw TestSupportError("login of \(login) failed: \(result.stderr)")
        }
        self.id = id
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, timeout: Double = 120) throws -> ProcessResult {
        try cli.run(arguments, stdin: stdin, timeout: timeout)
    }

    /// Waits until the server holds `text` in this user's one dialog (asked over REST, not by chatctl).
    func waitUntilServerHas(_ text: String, on sandbox: SandboxProcess, timeout: Double = 30) throws {
        let token = try sandbox.createSession(login: login, password: Self.password)
        guard let dialog = try sandbox.dialogIDs(token: token).first else { throw TestSupportError("\(login) has no dialog") }
        try waitUntil("'\(text)' on the server", timeout: timeout) {
            try sandbox.messageTexts(token: token, dialogID: dialog).contains(text)
        }
    }

    /// `history --json` as [[String: Any]].
    func history(_ dialog: String, limit: Int = 5000, offline: Bool = false) throws -> [[String: Any]] {
        let result = try run(["history", dialog, "--json", "--limit", String(limit)] + (offline ? ["--offline"] : []))
        guard result.status == 0, let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("history failed (\(result.status)): \(result.stderr)")
        }
        return items
    }
}

/// Messaging, end to end over REST and the cache.
@Suite(.serialized) struct MessagingEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    @Test func aThousandPipedLinesArriveInOrderOnceEach() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let lines = (0..<1000).map { "line \($0)" }
        let send = try alice.run(["send", "@" + bob.login, "--lines"], stdin: lines.joined(separator: "\n") + "\n", timeout: 300)
        #expect(send.status == 0, "stderr: \(send.stderr)")
        let items = try bob.history("@" + alice.login)
        #expect(items.compactMap { $0["message"] as? String } == lines)
        #expect(Set(items.compactMap { $0["_id"] as? String }).count == 1000)
        #expect(try alice.run(["outbox", "--json"]).stdout == "[]\n")
    }

    /// A stream read in large batches (one outbox transaction, one write and
    /// one ack asked for each), at most 1,000 in flight so the sender also waits for acks
    /// along the way: every line on the server once, in order; the outbox empty; each in
    /// the sender's history as delivered.
    @Test func fiveThousandLinesInBatchesArriveOnceInOrder() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let lines = (0..<5000).map { "batch line \($0)" }
        let send = try alice.cli.run(["send", "@" + bob.login, "--lines"], stdin: lines.joined(separator: "\n") + "\n",
                                     environment: ["CHATCTL_SEND_WINDOW": "1000"], timeout: 300)
        #expect(send.status == 0, "stderr: \(send.stderr)")
        let token = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        let dialog = try #require(try sandbox.dialogIDs(token: token).first)
        #expect(try sandbox.allMessageTexts(token: token, dialogID: dialog) == lines, "every line once, in order")
        #expect(try alice.run(["outbox", "--json"]).stdout == "[]\n")
        let sent = try alice.history("@" + bob.login, limit: 5000, offline: true)
        #expect(sent.compactMap { $0["message"] as? String } == lines)
        #expect(Set(sent.compactMap { $0["_id"] as? String }).count == 5000)
    }

    @Test func wholeStdinIsOneMessageAndArgumentsAreJoined() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login], stdin: "first line\nsecond line\n").status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "hello", "there"]).status == 0)
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        #expect(texts == ["first line\nsecond line", "hello there"])
    }

    @Test func aGroupOfThree() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let name = "ops" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@\(bob.login),@\(carol.login)", "--json"])
        #expect(created.status == 0, "stderr: \(created.stderr)")
        for (user, text) in [(alice, "from alice"), (bob, "from bob"), (carol, "from carol")] {
            let r = try user.run(["send", name, text])
            #expect(r.status == 0, "\(user.login): \(r.stderr)")
        }
        for user in [alice, bob, carol] {
            #expect(try user.history(name).compactMap { $0["message"] as? String } == ["from alice", "from bob", "from carol"])
        }
        let listed = try carol.run(["dialogs", "--type", "group"])
        #expect(listed.stdout.contains(name))
    }

    @Test func ambiguousAndUnknownDialogsAreUsageErrors() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for _ in 0..<2 { #expect(try alice.run(["dialogs", "create", "--group", "twins", "--with", "@" + bob.login]).status == 0) }
        let ambiguous = try alice.run(["send", "twins", "hi"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("'twins' names 2 dialogs"))
        let unknown = try alice.run(["history", "no-such-dialog"])
        #expect(unknown.status == 2)
        #expect(try alice.run(["send", "@nosuchuser" + uniqueLogin(), "hi"]).status == 2)
    }

    @Test func aTerminalOnStdinWithNoTextIsAUsageError() throws {
        // Without a terminal here, the closest check: no TEXT and --lines with TEXT are refused up front.
        let alice = try ChatUser("alice", sandbox: sandbox)
        let both = try alice.run(["send", "@someone", "--lines", "text"])
        #expect(both.status == 2)
    }

    @Test func offlineDialogsHistoryAndSearchWithTheSandboxStopped() throws {
        let local = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: local), bob = try ChatUser("bob", sandbox: local)
        #expect(try alice.run(["send", "@" + bob.login, "the quick brown fox"]).status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "jumps over the lazy dog"]).status == 0)
        #expect(try bob.run(["sync"]).status == 0)
        local.stop()

        let dialogs = try bob.run(["dialogs", "--offline", "--json"])
        #expect(dialogs.status == 0, "stderr: \(dialogs.stderr)")
        #expect(((try? JSONSerialization.jsonObject(with: Data(dialogs.stdout.utf8))) as? [Any])?.count == 1)
        #expect(try bob.history("@" + alice.login, offline: true).count == 2)
        let search = try bob.run(["search", "lazy", "--json"])
        #expect(search.status == 0, "stderr: \(search.stderr)")
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [[String: Any]])
        #expect(hits.count == 1)
        #expect((hits.first?["snippet"] as? String)?.contains("[lazy]") == true)
        // Online commands fail as temporary, naming the endpoint.
        let online = try bob.run(["dialogs"])
        #expect(online.status == 75)
    }

    /// `-word` leaves out, as in a web search; a query of only words left out is one line, exit 2.
    @Test func searchLeavesOutAMinusWordAndSaysWhatItCannotRead() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "standup on friday at ten"]).status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "carol says friday is off"]).status == 0)
        #expect(try bob.run(["sync"]).status == 0)
        let search = try bob.run(["search", "friday -carol", "--json"])
        #expect(search.status == 0, "stderr: \(search.stderr)")
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [[String: Any]])
        #expect(hits.compactMap { $0["message"] as? String } == ["standup on friday at ten"])
        let only = try bob.run(["search", "--", "-carol"])
        #expect(only.status == 2)
        #expect(only.stdout.isEmpty)
        #expect(only.stderr.hasPrefix("chatctl: bad search query '-carol': only words to leave out"))
        #expect(only.stderr.split(separator: "\n").count == 1)
        #expect(!only.stderr.contains("fts5"))
    }

    @Test func tenSendersAtOnceAllArriveWithoutCacheErrors() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "warm-up"]).status == 0) // creates the dialog once
        let results = ResultBox<ProcessResult>()
        DispatchQueue.concurrentPerform(iterations: 10) { i in
            if let r = try? alice.run(["send", "@" + bob.login, "parallel \(i)"]) { results.append(r) }
        }
        #expect(results.all.count == 10)
        for r in results.all {
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(!r.stderr.contains("locked"))
        }
        let texts = Set(try bob.history("@" + alice.login).compactMap { $0["message"] as? String })
        #expect(texts == Set((0..<10).map { "parallel \($0)" } + ["warm-up"]))
    }

    @Test func escapeSequencesInAMessagePrintInert() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}hi \u{1B}[31mred\u{9B}1m"
        #expect(try alice.run(["send", "@" + bob.login, hostile]).status == 0)
        let human = try bob.run(["history", "@" + alice.login])
        #expect(human.status == 0)
        #expect(human.stdout.contains("hi red"))
        #expect(!human.stdout.contains("\u{1B}") && !human.stdout.contains("\u{07}") && !human.stdout.contains("\u{9B}"))
        // JSON keeps the text exactly (escaped by JSON, inert on a terminal too).
        #expect(try bob.history("@" + alice.login).last?["message"] as? String == hostile)
    }
}

/// Losing nothing when the sender dies or the server goes away mid-stream.
@Suite(.serialized) struct MessagingLossTests {
    @Test func sandboxStoppedMidStreamThenFlushDeliversEachLineOnce() throws {
        let db = try TemporaryDirectory()
        let dbPath = db.file("sandbox.db")
        var sandbox = try SandboxProcess(arguments: ["--db", dbPath])
        // The users' config outlives the first sandbox process.
        let configPath = db.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        #expect(try alice.run(["send", "@" + bob.login, "before"]).status == 0)
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!

        // A stream whose producer outlives the server.
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe)
        for i in 0..<20 { try sender.write("early \(i)\n") }
        // Mid-stream for real: the early lines are on the server before it stops.
        try bob.waitUntilServerHas("early 19", on: sandbox)
        sandbox.stop()
        for i in 0..<20 { try sender.write("late \(i)\n") }
        sender.closeInput()
        let sent = sender.finish(timeout: 60)
        #expect(sent.status == 3, "stderr: \(sent.stderr)")
        #expect(sent.stderr.contains("not delivered"))
        #expect(sent.stderr.contains("outbox flush"))

        // Same database, same ports: the sessions and messages are still there.
        sandbox = try SandboxProcess(arguments: ["--db", dbPath], apiPort: api.port!, chatPort: chat.port!)
        // Same ports and application: the same session key, a new certificate.
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let pending = try alice.run(["outbox", "--json"])
        #expect(pending.status == 0)
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        #expect(try alice.run(["outbox", "--json"]).stdout == "[]\n")
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        let stream = (0..<20).map { "early \($0)" } + (0..<20).map { "late \($0)" }
        // Each line exactly once, and the stream in its own order. ("before" went
        // over REST with a server-made id, the stream over chat with client-made
        // ids: within one second of date_sent the two have no common order.)
        #expect(texts.sorted() == (["before"] + stream).sorted(), "every line delivered exactly once")
        #expect(texts.filter { $0 != "before" } == stream, "the stream in order")
    }

    @Test func killedSenderLosesNothingAndFlushDuplicatesNothing() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "start"]).status == 0)
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe)
        for i in 0..<300 { try sender.write("n\(i)\n") }
        // Killed once some of the stream reached the server, with its input still open.
        try bob.waitUntilServerHas("n0", on: sandbox)
        sender.signal(SIGKILL)
        _ = sender.finish(timeout: 10)

        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }.filter { $0 != "start" }
        // Whatever was read arrived once, in order, with no gap: a prefix of what was written.
        #expect(texts == (0..<texts.count).map { "n\($0)" })
        #expect(texts.count > 0)
    }

    /// Killed with a batch in flight. The server has the batch but its acks never
    /// came back (the proxy drops what the server says): every line not acknowledged is
    /// still in the outbox, none of them is in the sender's history as delivered, what was
    /// acknowledged is not in the outbox; a flush finds the batch in the server's history and
    /// sends nothing again, so each line is stored once, in order.
    @Test func killedWithABatchInFlightKeepsItAndFlushStoresNothingTwice() throws {
        let pair = try ProxiedPair(first: "start")
        let (backend, alice, bob) = (pair.backend, pair.alice, pair.bob)
        let stored = { try pair.stored("k") }
        let outbox: () throws -> [String] = {
            let listed = try alice.run(["outbox", "--json"])
            let entries = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            return entries.compactMap { $0["message"] as? String }
        }
        let lines = (0..<5000).map { "k\($0)" }
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe)
        try sender.write(lines[..<2000].joined(separator: "\n") + "\n")
        // Acknowledged and recorded: on the server, out of the outbox.
        try waitUntil("the first 2,000 stored and acknowledged", timeout: 60) { try stored().count == 2000 && outbox().isEmpty }
        backend.chat.mode = .dropFromServer
        try sender.write(lines[2000...].joined(separator: "\n") + "\n")
        try waitUntil("the rest stored, unacknowledged", timeout: 60) { try stored().count == 5000 }
        sender.signal(SIGKILL)
        _ = sender.finish(timeout: 10)

        #expect(try outbox() == Array(lines[2000...]), "every unacknowledged line waits in the outbox, in order")
        // ("start" went over REST under a server-made id: within its second it has no place in the stream's order.)
        let delivered = try alice.history("@" + bob.login, limit: 6000, offline: true).compactMap { $0["message"] as? String }
        #expect(delivered.filter { $0 != "start" } == Array(lines[..<2000]), "none recorded delivered without its ack")
        backend.chat.mode = .pass
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        #expect(try stored() == lines, "each line stored once, in order")
        #expect(try outbox().isEmpty)
    }

    /// `outbox drop`: a message given up on leaves the outbox with the outbox's
    /// copy of its file; a typo drops nothing; the rest still goes on flush.
    @Test func droppedMessagesLeaveTheOutboxAndTheRestIsFlushed() throws {
        let directory = try TemporaryDirectory()
        let dbPath = directory.file("sandbox.sqlite")
        var sandbox = try SandboxProcess(arguments: ["--db", dbPath])
        let configPath = directory.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        #expect(try alice.run(["send", "@" + bob.login, "start"]).status == 0)
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!
        sandbox.stop()

        #expect(try alice.run(["send", "@" + bob.login, "keep me"], timeout: 60).status == 3)
        let spooled = try alice.run(["send", "@" + bob.login, "--attach", "-", "--name", "log.txt", "drop me"],
                                    stdin: "the log\n", timeout: 60)
        #expect(spooled.status == 3, "stderr: \(spooled.stderr)")
        let filesDirectory = alice.cli.stateDir.path + "/state/outbox-files"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: filesDirectory)) ?? []).count == 1)
        let listed = try alice.run(["outbox", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let ids = Dictionary(uniqueKeysWithValues: entries.compactMap { e in
            (e["message"] as? String).flatMap { m in (e["client_message_id"] as? String).map { (m, $0) } }
        })
        let dropID = try #require(ids["drop me"]), keepID = try #require(ids["keep me"])
        #expect(try alice.run(["outbox"]).stdout.contains(dropID), "the table shows the id to drop by")

        // A wrong id among good ones: nothing is dropped.
        let typo = try alice.run(["outbox", "drop", dropID, "ffffffffffff"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("no message 'ffffffffffff' in the outbox"), "stderr: \(typo.stderr)")
        #expect(try alice.run(["outbox", "--json"]).stdout.contains(dropID))

        let dropped = try alice.run(["outbox", "drop", String(dropID.prefix(20)), "--json"])
        #expect(dropped.status == 0, "stderr: \(dropped.stderr)")
        #expect(dropped.stdout == "{\"dropped\":[\"\(dropID)\"]}\n")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: filesDirectory)) ?? []).isEmpty, "its spooled stdin is gone")
        let left = try alice.run(["outbox", "--json"]).stdout
        #expect(!left.contains(dropID) && left.contains(keepID))

        sandbox = try SandboxProcess(arguments: ["--db", dbPath], apiPort: api.port!, chatPort: chat.port!)
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        // "start" went over REST, "keep me" over chat: within one second of
        // date_sent the two have no common order. Each once, the dropped one never.
        #expect(texts.sorted() == ["keep me", "start"])
    }
}
