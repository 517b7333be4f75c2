import Foundation
import Testing
import TestSupport

/// Markers and read state between two real chatctl users on a real sandbox:
/// delivered when the other's listen hands a message on, read only when a person
/// saw it or asked (docs/protocol.md §6–7).
@Suite(.serialized) struct ReadStateEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// `text`'s message in `user`'s `history --json` of `dialog`.
    func item(_ text: String, of user: ChatUser, in dialog: String, offline: Bool = false) throws -> [String: Any] {
        try #require(try user.history(dialog, offline: offline).first { $0["message"] as? String == text }, "no '\(text)'")
    }

    /// `unread_messages_count` of `user`'s one dialog, as `dialogs --json` shows it.
    func unread(_ user: ChatUser) throws -> Int? {
        let result = try user.run(["dialogs", "--json"])
        guard result.status == 0, let dialogs = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("dialogs failed (\(result.status)): \(result.stderr)")
        }
        return dialogs.first?["unread_messages_count"] as? Int
    }

    @Test func listenIntoAPipeMakesItDeliveredButNotRead() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "before listening"]).status == 0)
        #expect(try item("before listening", of: alice, in: "@" + bob.login)["status"] as? String == "sent")

        let listener = try bob.cli.background(["listen", "--count", "1", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "are you there"]).status == 0)
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")

        let live = try item("are you there", of: alice, in: "@" + bob.login)
        #expect(live["status"] as? String == "delivered")
        #expect((live["delivered_ids"] as? [Int])?.contains(bob.id) == true)
        #expect((live["read_ids"] as? [Int])?.contains(bob.id) == false, "a pipe is not a person")
        #expect(try item("before listening", of: alice, in: "@" + bob.login)["status"] as? String == "sent",
                "only what listen handed on is answered")
        let transcript = try alice.run(["history", "@" + bob.login]).stdout
        // In a pipe, the state is a field of its own (docs/cli-output.md).
        #expect(transcript.contains("\t\(alice.id)\t") && transcript.contains("\tdelivered\t\tare you there\n"), "\(transcript)")
        #expect(transcript.contains("\tsent\t\tbefore listening\n"), "\(transcript)")

        // Bob's history without --mark-read changes nothing either.
        #expect(try unread(bob) == 2)
        #expect(try bob.run(["history", "@" + alice.login]).status == 0)
        #expect(try unread(bob) == 2)
        #expect(try item("are you there", of: alice, in: "@" + bob.login)["status"] as? String == "delivered")
    }

    @Test func readMarksTheDialogAndTheSendersListenHearsIt() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for text in ["one", "two"] { #expect(try alice.run(["send", "@" + bob.login, text]).status == 0) }
        let table = try bob.run(["dialogs"])
        #expect(table.stdout.split(separator: "\n").contains { $0.contains("\t\(alice.login)\tprivate\t2\t") }, "\(table.stdout)")
        #expect(try unread(bob) == 2)

        // Alice listens, so bob's displayed markers reach her cache (where send put both) as they are sent.
        let listener = try alice.cli.background(["listen", "--timeout", "90s"])
        try listener.waitUntilListening()
        let read = try bob.run(["read", "@" + alice.login])
        #expect(read.status == 0, "stderr: \(read.stderr)")
        #expect(read.stderr == "chatctl: marked 2 messages read in the private dialog with @\(alice.login)\n", "\(read.stderr)")
        // Offline: only the markers can have changed alice's cache.
        try waitUntil("alice's cache to count both read", timeout: 30) {
            try alice.history("@" + bob.login, offline: true).allSatisfy { $0["status"] as? String == "read" }
        }
        // Its work is done. SIGKILL: a child of the test runner may have SIGTERM blocked (see PseudoTerminal).
        listener.signal(SIGKILL)
        _ = listener.finish(timeout: 10)

        let transcript = try alice.run(["history", "@" + bob.login]).stdout
        #expect(transcript.contains("\tread\t\tone\n") && transcript.contains("\tread\t\ttwo\n"), "\(transcript)")
        #expect(try unread(bob) == 0)
        let again = try bob.run(["read", "@" + alice.login])
        #expect(again.status == 0 && again.stderr.hasPrefix("chatctl: marked 0 messages read in "), "stderr: \(again.stderr)")
    }

    /// `send --lines` holds a chat connection: markers that come while it runs are recorded too.
    @Test func aStreamingSenderRecordsTheMarkersItHears() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)  // makes the dialog
        let listener = try bob.cli.background(["listen", "--count", "1", "--timeout", "60s"])
        try listener.waitUntilListening()
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe)
        try sender.write("streamed\n")
        // Bob's listen ends once the server acknowledged its marker, which is then on its way to alice.
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0 && heard.stdout.contains("streamed"), "stderr: \(heard.stderr)")
        sender.closeInput()
        let sent = sender.finish(timeout: 30)
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        // Offline: what alice's cache learnt while sending.
        #expect(try item("streamed", of: alice, in: "@" + bob.login, offline: true)["status"] as? String == "delivered")
    }

    @Test func historyMarkReadMarksOnlyTheMessagesShown() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for text in ["first", "second", "third"] { #expect(try alice.run(["send", "@" + bob.login, text]).status == 0) }
        let shown = try bob.run(["history", "@" + alice.login, "--limit", "2", "--mark-read"])
        #expect(shown.status == 0, "stderr: \(shown.stderr)")
        #expect(shown.stdout.contains("second") && !shown.stdout.contains("first"))
        #expect(try unread(bob) == 1)
        #expect(try item("first", of: alice, in: "@" + bob.login)["status"] as? String == "sent")
        #expect(try item("third", of: alice, in: "@" + bob.login)["status"] as? String == "read")
    }

    @Test func listenOnATerminalMarksWhatItPrintsRead() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)  // makes the dialog
        let terminal = try PseudoTerminal(productPath("chatctl"), ["listen", "--count", "1", "--timeout", "60s"],
                                          environment: ["CHATCTL_CONFIG": bob.cli.configPath,
                                                        "CHATCTL_STATE_DIR": bob.cli.stateDir.path + "/state"])
        try terminal.output.wait(for: "listen's ready line", timeout: 30) { $0.contains("chatctl: listening to ") }
        #expect(try alice.run(["send", "@" + bob.login, "seen on a screen"]).status == 0)
        let status = try #require(terminal.waitForExit(timeout: 30), "listen did not end: \(terminal.output.text)")
        #expect(status == 0, "\(terminal.output.text)")
        #expect(terminal.output.text.contains("seen on a screen"))
        #expect(try item("seen on a screen", of: alice, in: "@" + bob.login)["status"] as? String == "read")
        #expect(try item("hello", of: alice, in: "@" + bob.login)["status"] as? String == "sent", "not shown, not read")
        #expect(try unread(bob) == 1)
    }

    @Test func readOfADialogThatIsNotYoursIsAUsageError() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "private"]).status == 0)
        let dialogID = try #require(try alice.history("@" + bob.login).first?["chat_dialog_id"] as? String)
        let stranger = try carol.run(["read", dialogID])
        #expect(stranger.status == 2)
        #expect(stranger.stderr.hasPrefix("chatctl: no dialog with id \(dialogID)"), "\(stranger.stderr)")
        #expect(try carol.run(["read", "no-such-dialog"]).status == 2)
        #expect(try unread(bob) == 1, "nothing was marked")
    }
}
