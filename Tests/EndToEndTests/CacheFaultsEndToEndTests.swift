import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The cache: the real chatctl on a full disk, a damaged cache, a cache from
/// a newer chatctl and a read-only state directory, each one line and exit 1 with the
/// outbox kept; `cache check` and `cache rebuild`; twenty processes on one state
/// directory. The table in docs/faults.md names these tests.
@Suite(.serialized) struct CacheFaultsEndToEndTests {
    let sandbox: SandboxProcess

    init() throws { sandbox = try SandboxProcess() }

    /// alice and bob, one message between them, and one message of alice's waiting in her
    /// outbox, as a `send` killed before the server acknowledged it leaves one.
    func twoUsersWithAQueuedMessage() throws -> (alice: ChatUser, bob: ChatUser) {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let first = try alice.run(["send", "@" + bob.login, "before the fault"])
        #expect(first.status == 0, "\(first.stderr)")
        let path = try cachePath(alice)
        let id = String(format: "%08x%016llx", UInt32(Date().timeIntervalSince1970), UInt64.random(in: 0..<UInt64.max))
        _ = try sqlite(path, """
            INSERT INTO outbox (client_message_id, dialog_id, text, created_at)
            SELECT '\(id)', id, 'queued while chat is down', unixepoch() FROM dialogs
            """)
        #expect(try outboxTexts(alice) == ["queued while chat is down"])
        return (alice, bob)
    }

    func outboxTexts(_ user: ChatUser) throws -> [String] {
        let result = try user.run(["outbox", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["message"] as? String }
    }

    /// The queued message goes, once; bob sees both.
    func flushDelivers(_ alice: ChatUser, to bob: ChatUser) throws {
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(try outboxTexts(alice).isEmpty)
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        #expect(texts.filter { $0 == "queued while chat is down" }.count == 1)
        #expect(texts.contains("before the fault"))
    }

    func cachePath(_ user: ChatUser) throws -> String {
        let result = try user.run(["cache"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let result = try runProcess("/usr/bin/sqlite3", [path, sql], timeout: 30)
        guard result.status == 0 else { throw TestSupportError("sqlite3: \(result.stderr)") }
        return result.stdout
    }

    func overwrite(_ path: String, pages: [Int], pageSize: Int = 4096) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            handle.write(Data(repeating: 0x5A, count: pageSize))
        }
    }

    /// The one line a cache fault prints: exit 1, nothing else on stderr.
    func expectOneLine(_ result: ProcessResult, _ needles: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for needle in needles { #expect(result.stderr.contains(needle), "\(result.stderr)", sourceLocation: sourceLocation) }
    }

    @Test func aFullDiskFailsSendInOneLineKeepsTheOutboxAndReadsGoOn() throws {
        let (alice, bob) = try twoUsersWithAQueuedMessage()
        let limit = { Confinement.fileSizeLimit(256 * 1024, $0, $1) }
        let big = (0..<40_000).map { "line \($0) of a long message that will not fit" }.joined(separator: "\n")
        var full = try alice.cli.run(confined: limit, ["send", "@" + bob.login], stdin: big)
        // First the split is said, then the fault in one line.
        let notice = "chatctl: the message was split into"
        #expect(full.stderr.hasPrefix(notice), "\(full.stderr)")
        full.stderr = full.stderr.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix(notice) }.joined(separator: "\n")
        expectOneLine(full, ["cannot write the message cache", "no space left", "free some space"])
        // Reads under the same limit still work, and nothing queued before is lost.
        let history = try alice.cli.run(confined: limit, ["history", "@" + bob.login, "--offline"])
        #expect(history.status == 0 && history.stdout.contains("before the fault"), "\(history.stderr)")
        #expect(try alice.cli.run(confined: limit, ["outbox", "--json"]).stdout.contains("queued while chat is down"))
        // The message was split into parts (docs/protocol.md: 32 KiB each): those sent before the
        // disk filled went once; none is left half-written; the flush sends the one queued before.
        try flushDelivers(alice, to: bob)
        let parts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }.filter { $0.contains("of a long message") }
        #expect(parts.count < big.utf8.count / (32 * 1024), "not every part can have fit")
        #expect(Set(parts).count == parts.count, "each part once")
    }

    @Test func aDamagedCacheIsNamedCheckedAndRebuiltWithItsOutbox() throws {
        let (alice, bob) = try twoUsersWithAQueuedMessage()
        let path = try cachePath(alice)
        let pages = try sqlite(path, "SELECT pageno FROM dbstat WHERE name IN ('messages', 'dialogs', 'messages_by_dialog_date')")
            .split(separator: "\n").compactMap { Int($0) }
        try #require(!pages.isEmpty)
        try overwrite(path, pages: pages)

        expectOneLine(try alice.run(["history", "@" + bob.login, "--offline"]),
                      ["is damaged", "chatctl cache check", "chatctl cache rebuild", "the outbox is kept"])
        let check = try alice.run(["cache", "check"])
        #expect(check.status == 1 && check.stdout.contains("verdict:") && check.stdout.contains("damaged"), "\(check.stdout)\(check.stderr)")
        let json = try #require(jsonObject(try alice.run(["cache", "check", "--json"]).stdout))
        #expect(json["ok"] as? Bool == false && json["outbox_count"] as? Int == 1)

        let rebuild = try alice.run(["cache", "rebuild", "--json"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let report = try #require(jsonObject(rebuild.stdout))
        #expect(report["outbox_saved"] as? Int == 1 && report["outbox_lost"] as? Int == 0)
        #expect(report["dialogs"] as? Int == 1 && (report["messages"] as? Int ?? 0) >= 1)
        #expect(FileManager.default.fileExists(atPath: try #require(report["moved_to"] as? String)), "the old file is kept")
        #expect(try alice.run(["cache", "check"]).status == 0)
        let history = try alice.run(["history", "@" + bob.login, "--offline"])
        #expect(history.status == 0 && history.stdout.contains("before the fault"), "\(history.stderr)")
        try flushDelivers(alice, to: bob)
    }

    @Test func aDamagedHeaderIsNamedAndRebuilt() throws {
        let (alice, bob) = try twoUsersWithAQueuedMessage()
        try overwrite(try cachePath(alice), pages: [1])
        expectOneLine(try alice.run(["dialogs", "--offline"]), ["is damaged", "chatctl cache rebuild"])
        let check = try alice.run(["cache", "check"])
        #expect(check.status == 1 && check.stdout.contains("not an SQLite database"), "\(check.stdout)")
        let rebuild = try alice.run(["cache", "rebuild"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stderr.contains("could not be saved"), "\(rebuild.stderr)")
        #expect(try alice.run(["history", "@" + bob.login, "--offline"]).stdout.contains("before the fault"))
    }

    @Test func aCacheFromANewerChatctlIsReadNeverWrittenAndCanBeMovedAside() throws {
        let (alice, bob) = try twoUsersWithAQueuedMessage()
        let path = try cachePath(alice)
        _ = try sqlite(path, "PRAGMA user_version = 99")
        expectOneLine(try alice.run(["send", "@" + bob.login, "from an old chatctl"]),
                      ["the cache was written by a newer chatctl (schema 99, this one knows", "upgrade chatctl", "chatctl cache rebuild"])
        let history = try alice.run(["history", "@" + bob.login, "--offline"])
        #expect(history.status == 0 && history.stdout.contains("before the fault"), "\(history.stderr)")
        #expect(try sqlite(path, "PRAGMA user_version") == "99\n", "never migrated down")
        #expect(try alice.run(["cache", "check"]).status == 1)
        let rebuild = try alice.run(["cache", "rebuild"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(try alice.run(["cache", "check"]).status == 0)
        try flushDelivers(alice, to: bob)
        #expect(try !bob.history("@" + alice.login).contains { $0["message"] as? String == "from an old chatctl" })
    }

    @Test func aReadOnlyStateDirectoryStillReadsAndSaysWhatToDo() throws {
        let (alice, bob) = try twoUsersWithAQueuedMessage()
        let directory = URL(fileURLWithPath: try cachePath(alice)).deletingLastPathComponent().path
        chmod(directory, 0o500)
        defer { chmod(directory, 0o700) }
        let asUser = { Confinement.withoutPermissionOverride($0, $1) }
        let history = try alice.cli.run(confined: asUser, ["history", "@" + bob.login, "--offline"])
        #expect(history.status == 0 && history.stdout.contains("before the fault"), "\(history.stderr)")
        #expect(try alice.cli.run(confined: asUser, ["outbox", "--json"]).stdout.contains("queued while chat is down"))
        expectOneLine(try alice.cli.run(confined: asUser, ["send", "@" + bob.login, "not now"]), [directory, "--state-dir"])
        chmod(directory, 0o700)
        try flushDelivers(alice, to: bob)
    }

    /// Twenty chatctl processes of every kind on one state directory at once.
    @Test func twentyProcessesOnOneStateDirectory() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        #expect(try bob.run(["send", "@" + alice.login, "hello"]).status == 0)
        let fromBob = 10
        var processes: [(String, ChildProcess)] = []
        for i in 0..<4 {
            let listen = try alice.cli.background(["listen", "--count", String(fromBob), "--timeout", "120s", "--json"])
            processes.append(("listen \(i)", listen))
        }
        for (_, listen) in processes { try listen.waitUntilListening(timeout: 60) }
        var sent: [String] = []
        for i in 0..<6 {
            let lines = (0..<20).map { "lines \(i) line \($0)" }
            sent += lines
            processes.append(("send --lines \(i)", try alice.cli.background(
                ["send", "@" + bob.login, "--lines"], input: .bytes(Data((lines.joined(separator: "\n") + "\n").utf8)))))
        }
        for i in 0..<3 {
            sent.append("rest \(i)")
            processes.append(("send \(i)", try alice.cli.background(["send", "@" + bob.login, "rest \(i)"])))
        }
        for i in 0..<3 { processes.append(("sync \(i)", try alice.cli.background(["sync"]))) }
        for i in 0..<2 { processes.append(("search \(i)", try alice.cli.background(["search", "line"]))) }
        for i in 0..<2 { processes.append(("outbox flush \(i)", try alice.cli.background(["outbox", "flush"]))) }
        #expect(processes.count == 20)
        let bobSends = try bob.run(["send", "@" + alice.login, "--lines"], stdin: (0..<fromBob).map { "from bob \($0)" }.joined(separator: "\n") + "\n")
        #expect(bobSends.status == 0, "\(bobSends.stderr)")

        for (name, process) in processes {
            let result = process.finish(timeout: 180)
            #expect(result.status == 0 && !result.timedOut, "\(name): \(result.status) \(result.stderr)")
            for bad in ["locked", "busy", "SQLite"] {
                #expect(!result.stderr.contains(bad), "\(name): \(result.stderr)")
            }
            if name.hasPrefix("listen") {
                // Alice's own messages from the other processes show too, marked outgoing.
                let fromOthers = result.stdout.split(separator: "\n").filter { !$0.contains("\"outgoing\":true") }
                #expect(fromOthers.count == fromBob, "\(name): \(result.stdout)")
            }
        }
        #expect(try outboxTexts(alice).isEmpty)
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        for text in sent { #expect(texts.filter { $0 == text }.count == 1, "\(text) arrived \(texts.filter { $0 == text }.count) times") }
        #expect(try alice.run(["cache", "check"]).status == 0)
    }
}
