import Foundation
import Testing
import TestSupport

/// The send rows: ids printed and shown, a split said, blank messages refused on
/// every way in before any request, a permanent refusal never queued, and replies and
/// forwards sent as QuickBlox's UI Kits encode them.
@Suite(.serialized) struct SendEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// The dialogs `user` has on the server, asked over REST (not by chatctl).
    func serverDialogs(_ user: ChatUser) throws -> [String] {
        try sandbox.dialogIDs(token: try sandbox.createSession(login: user.login, password: ChatUser.password))
    }

    func outbox(_ user: ChatUser) throws -> [[String: Any]] {
        let result = try user.run(["outbox", "--json"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    func texts(_ user: ChatUser, _ dialog: String) throws -> [String] {
        try user.history(dialog).compactMap { $0["message"] as? String }
    }

    static func isID(_ text: Substring) -> Bool { text.count == 24 && text.allSatisfy(\.isHexDigit) }

    // MARK: empty

    @Test func aBlankMessageIsRefusedOnEveryWayInBeforeAnyRequest() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let ways: [(arguments: [String], stdin: String?)] = [
            (["send", "@" + bob.login, ""], nil),
            (["send", "@" + bob.login, " ", "\t"], nil),
            (["send", "@" + bob.login, "--via", "chat", ""], nil),
            (["send", "@" + bob.login, "--via", "rest", "  "], nil),
            (["send", "@" + bob.login], ""),
            (["send", "@" + bob.login], " \n\n\t\n"),
            (["send", "@" + bob.login, "--via", "chat"], "  \n"),
            (["send", "@" + bob.login, "--lines"], "\n  \n\n"),
            (["send", "@" + bob.login, "--lines", "--via", "rest"], " \n\t\n"),
        ]
        for way in ways {
            let result = try alice.run(way.arguments, stdin: way.stdin)
            #expect(result.status == 2, "\(way.arguments) \(way.stdin.debugDescription): \(result.stderr)")
            // One line saying what was wrong, then the usage every usage error ends with.
            #expect(result.stderr.split(separator: "\n").first?.contains("blank: nothing to send") == true, "\(way.arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").dropFirst().first?.hasPrefix("usage: chatctl send ") == true, "\(result.stderr)")
        }
        #expect(try serverDialogs(bob).isEmpty, "no request made: not even the private dialog was created")
        #expect(try outbox(alice).isEmpty)
    }

    /// --lines skips blank lines (documented), and sends the rest in order.
    @Test func blankLinesAreSkippedInLinesMode() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for via in ["chat", "rest"] {
            let result = try alice.run(["send", "@" + bob.login, "--lines", "--via", via], stdin: "\n  \n\(via) one\n \t\n\(via) two\n\n")
            #expect(result.status == 0, "\(result.stderr)")
        }
        let received = try texts(bob, "@" + alice.login)
        // Each command's lines in order; the two commands may share a second, so not each other's.
        #expect(received.filter { $0.hasPrefix("chat") } == ["chat one", "chat two"], "\(received)")
        #expect(received.filter { $0.hasPrefix("rest") } == ["rest one", "rest two"], "\(received)")
        #expect(received.count == 4, "\(received)")
    }

    /// A blank entry an older chatctl queued is dropped by a flush with a line, never sent.
    @Test func aFlushDropsAnOldBlankEntryWithALine() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let path = try alice.run(["cache"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let id = String(format: "%08x%016llx", UInt32(Date().timeIntervalSince1970), UInt64.random(in: 0..<UInt64.max))
        let insert = try runProcess("/usr/bin/sqlite3", [path, """
            INSERT INTO outbox (client_message_id, dialog_id, text, created_at)
            SELECT '\(id)', id, '  ', unixepoch() FROM dialogs
            """], timeout: 30)
        #expect(insert.status == 0, "\(insert.stderr)")
        #expect(try outbox(alice).count == 1)
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stderr.contains("dropped blank message \(id)"), "\(flush.stderr)")
        #expect(try outbox(alice).isEmpty)
        #expect(try texts(bob, "@" + alice.login) == ["hello"])
    }

    // MARK: refusals

    /// 403 (no longer an occupant) and 404 (the dialog is gone): said with the server's
    /// reason, exit 2, nothing in the outbox.
    @Test func aRefusalForGoodIsReportedAndNotQueued() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let left = "left" + String(Int.random(in: 1000...9999)), gone = "gone" + String(Int.random(in: 1000...9999))
        for name in [left, gone] {
            #expect(try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login]).status == 0)
        }
        #expect(try bob.run(["dialogs"]).status == 0, "bob's cache knows both")
        #expect(try alice.run(["dialogs", "remove", left, "@" + bob.login]).status == 0)
        #expect(try alice.run(["dialogs", "delete", gone, "--everyone"]).status == 0)
        for name in [left, gone] {
            let result = try bob.run(["send", name, "are you there?"])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(name == left ? "403" : "404"), "\(result.stderr)")
            #expect(result.stderr.contains("not kept in the outbox"), "\(result.stderr)")
            #expect(!result.stderr.contains("outbox flush"), "\(result.stderr)")
        }
        #expect(try outbox(bob).isEmpty)
    }

    // MARK: splitting

    @Test func aSplitIsSaidAndNoSplitRefusesBeforeAnyRequest() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let long = (0..<2000).map { "line \($0) of a long message" }.joined(separator: "\n")  // about 55 KB
        let refused = try alice.run(["send", "@" + bob.login, "--no-split"], stdin: long)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("--no-split") && refused.stderr.contains("32768"), "\(refused.stderr)")
        #expect(try serverDialogs(bob).isEmpty, "no request made")
        let split = try alice.run(["send", "@" + bob.login], stdin: long)
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stderr.contains("split into 2 messages"), "\(split.stderr)")
        #expect(try texts(bob, "@" + alice.login).joined(separator: "\n") == long)
    }

    // MARK: ids

    @Test func printIDPrintsEachStoredIdAndHistoryIdsShowsThem() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let one = try alice.run(["send", "@" + bob.login, "--print-id", "first"])
        #expect(one.status == 0, "\(one.stderr)")
        let lines = try alice.run(["send", "@" + bob.login, "--lines", "--print-id"], stdin: "second\nthird\n")
        #expect(lines.status == 0, "\(lines.stderr)")
        let rest = try alice.run(["send", "@" + bob.login, "--via", "rest", "--print-id"], stdin: "fourth\n")
        let printed = (one.stdout + lines.stdout + rest.stdout).split(separator: "\n")
        #expect(printed.count == 4 && printed.allSatisfy(Self.isID), "\(printed)")
        let stored = try bob.history("@" + alice.login).compactMap { $0["_id"] as? String }
        // Messages sent within one second are listed by id, not by the order they went in.
        #expect(Set(printed.map(String.init)) == Set(stored) && stored.count == 4, "\(printed) \(stored)")
        let shown = try bob.run(["history", "@" + alice.login, "--ids"])
        #expect(shown.status == 0)
        let shownLines = shown.stdout.split(separator: "\n").filter { !$0.hasPrefix("──") }
        #expect(shownLines.map { String($0.prefix(24)) } == stored, "\(shown.stdout)")
        // In a pipe every row starts with its id anyway (--ids is for the transcript on a terminal).
        #expect(try bob.run(["history", "@" + alice.login]).stdout == shown.stdout)
    }

    // MARK: replies and forwards

    /// Sent by chatctl, read back by the other user as the UI Kits encode them.
    @Test func aReplyAndAForwardAreReadBackAsTheUIKitEncoding() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let sent = try alice.run(["send", "@" + bob.login, "--print-id", "lunch at noon?"])
        let original = sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sent.status == 0 && original.count == 24, "\(sent.stderr)")
        #expect(try bob.run(["history", "@" + alice.login]).status == 0, "bob's cache has it")
        for via in ["rest", "chat"] {
            let reply = try bob.run(["send", "@" + alice.login, "--via", via, "--reply-to", original, "sure (\(via))"])
            #expect(reply.status == 0, "\(reply.stderr)")
        }
        let forward = try bob.run(["forward", original, "@" + carol.login, "--comment", "fyi"])
        #expect(forward.status == 0, "\(forward.stderr)")
        let bare = try bob.run(["forward", original, "@" + carol.login, "--print-id"])
        #expect(bare.status == 0 && bare.stdout.split(separator: "\n").allSatisfy(Self.isID), "\(bare.stderr)")

        // Found by text: messages sent within one second are listed by id, not in the order sent.
        let replies = try alice.history("@" + bob.login).filter { ($0["message"] as? String)?.hasPrefix("sure") == true }
        #expect(Set(replies.compactMap { $0["message"] as? String }) == ["sure (rest)", "sure (chat)"])
        for reply in replies { try expectQuote(reply, action: "reply", original: original, text: "lunch at noon?", from: alice.id) }
        let forwards = try carol.history("@" + bob.login)
        #expect(Set(forwards.compactMap { $0["message"] as? String }) == ["fyi", "[Forwarded_Message]"] && forwards.count == 2)
        for forward in forwards { try expectQuote(forward, action: "forward", original: original, text: "lunch at noon?", from: alice.id) }

        // In a pipe, the quote is the row's sixth field, before the text.
        let aliceRows = PipeOutputEndToEndTests.fields(try alice.run(["history", "@" + bob.login]).stdout)
        #expect(aliceRows.filter { $0.count == 7 && $0[5] == "↪ \(alice.login): lunch at noon?" }.count == 2, "\(aliceRows)")
        let carolRows = PipeOutputEndToEndTests.fields(try carol.run(["history", "@" + bob.login]).stdout)
        #expect(carolRows.filter { $0.count == 7 && $0[5] == "↪ forwarded from \(alice.login): lunch at noon?" }.count == 2, "\(carolRows)")
    }

    /// The three custom parameters as the kits send them: strings, the originals a JSON array.
    func expectQuote(_ item: [String: Any], action: String, original: String, text: String, from sender: Int,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(item["qb_message_action"] as? String == action, "\(item)", sourceLocation: sourceLocation)
        #expect((item["origin_sender_name"] as? String)?.isEmpty == false, "\(item)", sourceLocation: sourceLocation)
        let list = try #require(item["qb_original_messages"] as? String, "\(item)", sourceLocation: sourceLocation)
        let originals = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(originals.count == 1, sourceLocation: sourceLocation)
        #expect(originals.first?["_id"] as? String == original, sourceLocation: sourceLocation)
        #expect(originals.first?["message"] as? String == text, sourceLocation: sourceLocation)
        #expect(originals.first?["sender_id"] as? Int == sender, sourceLocation: sourceLocation)
    }

    /// Not in the cache: read from --from; without it, one line saying to give it.
    @Test func aForwardOfAMessageNotCachedReadsItFromTheDialogGiven() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let sent = try alice.run(["send", "@" + bob.login, "--print-id", "pass it on"])
        let original = sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let unknown = try bob.run(["forward", original, "@" + carol.login])
        #expect(unknown.status == 2 && unknown.stderr.contains("--from"), "\(unknown.stderr)")
        let forward = try bob.run(["forward", original, "@" + carol.login, "--from", "@" + alice.login])
        #expect(forward.status == 0, "\(forward.stderr)")
        let items = try carol.history("@" + bob.login)
        try expectQuote(try #require(items.last), action: "forward", original: original, text: "pass it on", from: alice.id)
    }
}
