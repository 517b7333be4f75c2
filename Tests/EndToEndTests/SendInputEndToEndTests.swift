import Foundation
import Testing
import TestSupport

/// What `send` does with input a person did not mean as messages: binary data is refused
/// before anything is queued (`--attach -` sends it), and a long message to a group typed
/// on a terminal is asked about before everyone reads it in pieces.
@Suite(.serialized) struct SendInputEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    func outbox(_ user: ChatUser) throws -> [[String: Any]] {
        let result = try user.run(["outbox", "--json"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    /// A group with `members`, made over REST by its first member's chatctl; its id.
    func group(_ name: String, of owner: ChatUser, with members: [ChatUser]) throws -> String {
        let created = try owner.run(["dialogs", "create", "--group", name, "--with", members.map { "@" + $0.login }.joined(separator: ","), "--json"])
        return try #require(jsonObject(created.stdout)?["_id"] as? String, "stderr: \(created.stderr)")
    }

    /// `head -c 200000 /dev/zero | chatctl send friends` and the same from /dev/urandom, whole
    /// or with --lines, by REST or chat: exit 2, one line naming what was wrong and `--attach -`,
    /// nothing sent, nothing queued.
    @Test func binaryInputIsRefusedBeforeAnythingIsSent() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let friends = try group("friends", of: alice, with: [bob])
        var random = SplitMix(seed: 7)
        // Random bytes with a byte that is never UTF-8 early on, so the place said is known.
        var noise = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        noise[0] = 0x41; noise[1] = 0xFF
        let inputs: [(bytes: Data, said: String)] = [
            (Data(repeating: 0, count: 200_000), "standard input is not text: a NUL byte at byte 1, line 1"),
            (Data(noise), "standard input is not text: a byte that is not UTF-8 at byte 2, line 1"),
        ]
        for input in inputs {
            for way in [[], ["--lines"], ["--lines", "--no-chat"], ["--via", "chat"]] {
                let result = try alice.cli.run(["send", "friends"] + way, input: input.bytes)
                #expect(result.status == 2, "\(way): \(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr == "chatctl: \(input.said) (send binary data as a file with --attach -)\n", "\(way)")
            }
        }
        let token = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        #expect(try sandbox.messageTexts(token: token, dialogID: friends).isEmpty, "nothing reached the group")
        #expect(try outbox(alice).isEmpty, "nothing queued")
    }

    /// A stream that turns binary: the lines before it are sent, it and the rest are not, and
    /// the line it is on is said (exit 2).
    @Test func aStreamStopsWhereItStopsBeingText() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for way in [["--lines"], ["--lines", "--no-chat"]] {
            let input = Data("one\ntwo\n".utf8) + Data([0x74, 0x00, 0x0A]) + Data("four\n".utf8)
            let result = try alice.cli.run(["send", "@" + bob.login] + way, input: input)
            #expect(result.status == 2, "\(way): \(result.stderr)")
            #expect(result.stderr.hasSuffix("chatctl: standard input is not text: a NUL byte at byte 10, line 3 (send binary data as a file with --attach -)\n"),
                    "\(way): \(result.stderr)")
        }
        let texts = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        // Both runs fall in one whole second of date_sent, where history orders by id: the
        // chat run's ids are the client's, the REST run's the server's, so compare as a multiset.
        #expect(texts.sorted() == ["one", "one", "two", "two"])
        #expect(try outbox(alice).isEmpty)
    }

    /// 54 KB typed as an argument to a group, in a terminal: asked first. No sends nothing
    /// (exit 2), yes sends both parts; --yes and a pipe never ask.
    @Test func aLongMessageToAGroupIsAskedAboutOnATerminal() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let name = "team" + String(Int.random(in: 1000...9999))
        let id = try group(name, of: alice, with: [bob])
        let token = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        let terminal = try TmuxSession(width: 200, environment: ChatEndToEndTests.environment(alice))
        let long = "\"$(yes 'a line of the long message' | head -n 2000)\""
        try terminal.runAtPrompt("clear; chatctl send \(name) \(long)", expecting: "[y/N]")
        let screen = try terminal.screen()
        #expect(screen.contains("send it as 2 messages to '\(name)', which everyone there reads? [y/N]"), "\(screen)")
        try terminal.type("n")
        try terminal.press("Enter")
        try terminal.waitFor("not sent")
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=2")
        #expect(try sandbox.messageTexts(token: token, dialogID: id).isEmpty)

        try terminal.runAtPrompt("clear; chatctl send \(name) \(long)", expecting: "[y/N]")
        try terminal.type("y")
        try terminal.press("Enter")
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=0")
        #expect(try sandbox.messageTexts(token: token, dialogID: id).count == 2)

        try terminal.runAtPrompt("clear; chatctl send \(name) --yes \(long); echo status=$?", expecting: "status=0")
        #expect(!(try terminal.screen()).contains("[y/N]"))
        let piped = try alice.run(["send", name], stdin: String(repeating: "a line of the long message\n", count: 2000))
        #expect(piped.status == 0 && !piped.stderr.contains("[y/N]"), "stderr: \(piped.stderr)")
        #expect(try sandbox.messageTexts(token: token, dialogID: id).count == 6)
    }
}
