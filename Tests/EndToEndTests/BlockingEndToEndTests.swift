import Foundation
import Testing
import TestSupport

/// Blocking from the command line against the real sandbox (docs/protocol.md §7, "Privacy
/// lists"): `block`, `blocked`, `unblock`; a private message to someone who blocks you fails
/// with exit 5 and is never queued; one to someone you block is refused before it goes (exit
/// 2); a blocked user's group messages do not reach the blocker; `dialogs --json` marks the
/// dialog; bad input changes nothing; a block outlives a restart of a `--db` sandbox.
@Suite(.serialized) struct BlockingEndToEndTests {
    /// `blocked --json`'s ids.
    static func blockedIDs(_ user: ChatUser) throws -> [Int] {
        let listed = try user.run(["blocked", "--json"])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let users = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return users.compactMap { $0["id"] as? Int }
    }

    static func outboxIsEmpty(_ user: ChatUser) throws -> Bool {
        try user.run(["outbox", "--json"]).stdout == "[]\n"
    }

    @Test func blockListUnblock() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let blocked = try alice.run(["block", "@" + bob.login])
        #expect(blocked.status == 0, "stderr: \(blocked.stderr)")
        #expect(blocked.stdout.isEmpty)
        #expect(blocked.stderr.hasPrefix("chatctl: blocked @\(bob.login): "), "\(blocked.stderr)")
        #expect(try Self.blockedIDs(alice) == [bob.id])
        // In a pipe: id, login, full name (docs/cli-output.md).
        let piped = try alice.run(["blocked"])
        #expect(piped.stdout == "\(bob.id)\t\(bob.login)\t\(bob.login)\n", "\(piped.stdout)")
        let theirs = try bob.run(["blocked"])
        #expect(theirs.status == 0 && theirs.stdout.isEmpty, "alice's list is hers, not bob's")
        #expect(theirs.stderr == "chatctl: you block nobody\n")

        let unblocked = try alice.run(["unblock", String(bob.id)])
        #expect(unblocked.status == 0, "stderr: \(unblocked.stderr)")
        #expect(unblocked.stderr == "chatctl: unblocked @\(bob.login)\n")
        #expect(try Self.blockedIDs(alice).isEmpty)
    }

    @Test func aSendToSomeoneWhoBlocksYouFailsAndIsNotQueuedUntilUnblocked() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "before"]).status == 0)
        #expect(try alice.run(["block", "@" + bob.login]).status == 0)

        let refused = try bob.run(["send", "@" + alice.login, "while blocked"])
        #expect(refused.status == 5, "stderr: \(refused.stderr)")
        #expect(refused.stderr == "chatctl: \(alice.login) has blocked you; the message was not sent\n")
        #expect(refused.stdout.isEmpty)
        #expect(try Self.outboxIsEmpty(bob), "never queued, never retried")
        #expect(try Self.blockedIDs(bob).isEmpty, "bob blocks nobody: the block is alice's")
        let flush = try bob.run(["outbox", "flush"])
        #expect(flush.status == 0)

        // alice is told the block stands when she writes to bob.
        let own = try alice.run(["send", "@" + bob.login, "to someone I block"])
        #expect(own.status == 2, "stderr: \(own.stderr)")
        #expect(own.stderr == "chatctl: you have blocked \(bob.login); the message was not sent ('chatctl unblock @\(bob.login)' first)\n")
        #expect(try Self.outboxIsEmpty(alice))

        #expect(try alice.run(["unblock", "@" + bob.login]).status == 0)
        let sent = try bob.run(["send", "@" + alice.login, "after unblock"])
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        let texts = try alice.history("@" + bob.login).compactMap { $0["message"] as? String }
        #expect(texts.sorted() == ["after unblock", "before"], "the refused message never reached the server")
    }

    @Test func aBlockedUsersGroupMessagesDoNotReachTheBlocker() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        let name = "team" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@\(bob.login),@\(carol.login)", "--json"])
        #expect(created.status == 0, "stderr: \(created.stderr)")
        #expect(try alice.run(["block", "@" + bob.login]).status == 0)
        let listener = try alice.cli.background(["listen", "--count", "1", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        // Over chat, where the room applies each occupant's list (REST's fan-out does not).
        #expect(try bob.run(["send", name, "--via", "chat", "from bob"]).status == 0, "a group message is not refused, only not delivered")
        #expect(try carol.run(["send", name, "--via", "chat", "from carol"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let texts = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
        #expect(texts == ["from carol"])
    }

    @Test func dialogsMarksAPrivateDialogWithSomeoneBlocked() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        let withBob = try #require(jsonObject(try alice.run(["dialogs", "create", "--private", "@" + bob.login, "--json"]).stdout)?["_id"] as? String)
        let withCarol = try #require(jsonObject(try alice.run(["dialogs", "create", "--private", "@" + carol.login, "--json"]).stdout)?["_id"] as? String)
        func marks(offline: Bool = false) throws -> [String: Bool] {
            let listed = try alice.run(["dialogs", "--json"] + (offline ? ["--offline"] : []))
            let dialogs = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: dialogs.compactMap { d in
                (d["_id"] as? String).flatMap { id in (d["blocked"] as? Bool).map { (id, $0) } }
            })
        }
        #expect(try marks() == [withBob: false, withCarol: false])
        #expect(try alice.run(["block", "@" + bob.login]).status == 0)
        #expect(try marks() == [withBob: true, withCarol: false])
        #expect(try marks(offline: true) == [withBob: true, withCarol: false], "from the cache, no connection")
        #expect(try alice.run(["unblock", "@" + bob.login]).status == 0)
        #expect(try marks() == [withBob: false, withCarol: false])
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["block", "@" + bob.login]).status == 0)
        let cases: [([String], String)] = [
            (["block", "@nobody-\(alice.login)"], "chatctl: no user with login 'nobody-\(alice.login)'\n"),
            (["block", "@" + alice.login], "chatctl: you cannot block yourself\n"),
            (["block", bob.login], "chatctl: @\(bob.login) is blocked already ('chatctl blocked' lists whom you block)\n"),
            (["unblock", "@" + alice.login], "chatctl: you cannot unblock yourself\n"),
        ]
        for (arguments, stderr) in cases {
            let result = try alice.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr == stderr)
            #expect(result.stdout.isEmpty)
        }
        #expect(try alice.run(["unblock", "@" + bob.login]).status == 0)
        let again = try alice.run(["unblock", "@" + bob.login])
        #expect(again.status == 2)
        #expect(again.stderr == "chatctl: @\(bob.login) is not blocked ('chatctl blocked' lists whom you block)\n")
        #expect(try Self.blockedIDs(alice).isEmpty)
        let missing = try alice.run(["block"])
        #expect(missing.status == 2 && missing.stderr.contains("USER"), "\(missing.stderr)")
    }

    @Test func aBlockOutlivesARestartOfTheSandbox() throws {
        let db = try TemporaryDirectory()
        var sandbox = try SandboxProcess(arguments: ["--db", db.file("sandbox.db")])
        let configPath = db.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        #expect(try alice.run(["block", "@" + bob.login]).status == 0)
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!
        sandbox.stop()
        sandbox = try SandboxProcess(arguments: ["--db", db.file("sandbox.db")], apiPort: api.port!, chatPort: chat.port!)
        defer { sandbox.stop() }
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        #expect(try Self.blockedIDs(alice) == [bob.id])
        let refused = try bob.run(["send", "@" + alice.login, "after the restart"])
        #expect(refused.status == 5, "stderr: \(refused.stderr)")
        #expect(try Self.outboxIsEmpty(bob))
    }
}
