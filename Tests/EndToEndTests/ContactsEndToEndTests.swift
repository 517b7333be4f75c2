import Foundation
import Testing
import TestSupport

/// `chatctl contacts` (docs/protocol.md §7, "Contact lists"): real chatctl binaries against a
/// real sandbox, two or three users. A request is listed by the other user and told by their
/// running `listen --json`; accepted, both list each other as `both` with presence; removed,
/// it is gone. A refusal, and the changes that cannot be made (exit 2, nothing changed).
@Suite(.serialized) struct ContactsEndToEndTests {
    /// `contacts --json`, as [[String: Any]].
    static func contacts(_ user: ChatUser) throws -> [[String: Any]] {
        let result = try user.run(["contacts", "--json"])
        guard result.status == 0, let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw TestSupportError("contacts failed (\(result.status)): \(result.stderr)")
        }
        return items
    }

    /// The one contact `id` of `user`'s list.
    static func contact(_ id: Int, of user: ChatUser) throws -> [String: Any]? {
        try contacts(user).first { $0["id"] as? Int == id }
    }

    /// A `listen --json` line of the contact list.
    static func event(_ listener: ChildProcess, _ name: String) throws -> [String: Any] {
        let line = try listener.stdout.waitForLine(name, timeout: 30) { jsonObject($0)?["event"] as? String == name }
        return jsonObject(line) ?? [:]
    }

    @Test func aRequestIsListedAndToldAcceptedBothSeeEachOtherAndRemovedItIsGone() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let listener = try bob.cli.background(["listen", "--json", "--timeout", "120s"])
        try listener.waitUntilListening()

        let add = try alice.run(["contacts", "add", "@" + bob.login])
        #expect(add.status == 0, "stderr: \(add.stderr)")
        // A change says what it did on stderr, stdout left empty (docs/cli-output.md, "What a change says").
        #expect(add.stdout.isEmpty && add.stderr == "chatctl: asked @\(bob.login) to be your contact (requested)\n", "\(add.stderr)")
        let request = try Self.event(listener, "contact_request")
        let requester = request["user"] as? [String: Any]
        #expect(requester?["id"] as? Int == alice.id && requester?["login"] as? String == alice.login)

        // Bob's list has the request; in a pipe, a tab-separated line.
        let listed = try bob.run(["contacts"])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        #expect(listed.stdout == "\(alice.id)\t\(alice.login)\t\(alice.login)\tasks you\t\n")
        #expect(try Self.contact(alice.id, of: bob)?["pending"] as? Bool == true)

        let accept = try bob.run(["contacts", "accept", alice.login])
        #expect(accept.status == 0, "stderr: \(accept.stderr)")
        #expect(accept.stdout.isEmpty && accept.stderr == "chatctl: accepted @\(alice.login)'s contact request (they see you, requested)\n", "\(accept.stderr)")

        // Alice's next contacts grants Bob's request back, as the SDKs do: both ways now,
        // Bob online (his listen runs); his listen hears the grant.
        let ofAlice = try Self.contact(bob.id, of: alice)
        #expect(ofAlice?["subscription"] as? String == "both")
        #expect(ofAlice?["ask"] is NSNull && ofAlice?["pending"] as? Bool == false)
        #expect(ofAlice?["presence"] as? String == "online")
        #expect((try Self.event(listener, "contact_accepted")["user"] as? [String: Any])?["id"] as? Int == alice.id)
        let ofBob = try Self.contact(alice.id, of: bob)
        #expect(ofBob?["subscription"] as? String == "both")
        // Told (Alice's last session may end just after it is asked about): not blank.
        #expect(["online", "offline"].contains(ofBob?["presence"] as? String ?? ""))
        let table = try alice.run(["contacts"])
        #expect(table.stdout == "\(bob.id)\t\(bob.login)\t\(bob.login)\tboth\tonline\n")

        let remove = try alice.run(["contacts", "remove", "@" + bob.login, "--json"])
        #expect(remove.status == 0, "stderr: \(remove.stderr)")
        #expect(jsonObject(remove.stdout)?["subscription"] as? String == "none")
        #expect(try Self.contacts(alice).isEmpty)
        #expect(try Self.contact(alice.id, of: bob)?["subscription"] as? String == "none", "neither sees the other")
        _ = try Self.event(listener, "contact_rejected")
        listener.signal(SIGINT)
        _ = listener.finish(timeout: 30)
    }

    @Test func aRefusedRequestIsGoneFromBothSides() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let listener = try alice.cli.background(["listen", "--timeout", "120s"])
        try listener.waitUntilListening()
        #expect(try carol.run(["contacts", "add", "@" + alice.login]).status == 0)
        // Plain listen says it on stderr, naming how to answer.
        try listener.stderr.waitForLine(containing: "asks to be your contact (chatctl contacts accept @\(carol.login), or reject)", timeout: 30)

        let reject = try alice.run(["contacts", "reject", "@" + carol.login])
        #expect(reject.status == 0, "stderr: \(reject.stderr)")
        #expect(reject.stdout.isEmpty && reject.stderr == "chatctl: refused @\(carol.login)'s contact request\n", "\(reject.stderr)")
        let left = try alice.run(["contacts"])
        #expect(left.stdout.isEmpty && left.stderr == "chatctl: no contacts ('chatctl contacts add USER' asks someone)\n")
        let ofCarol = try Self.contact(alice.id, of: carol)
        #expect(ofCarol?["subscription"] as? String == "none" && ofCarol?["ask"] is NSNull, "the request is no longer waiting")
        listener.signal(SIGINT)
        _ = listener.finish(timeout: 30)
    }

    @Test func changesThatCannotBeMadeSayWhyExitTwoAndChangeNothing() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        #expect(try alice.run(["contacts", "add", "@" + bob.login]).status == 0)
        let cases: [([String], String)] = [
            (["add", "@nobody-\(alice.login)"], "chatctl: no user with login 'nobody-\(alice.login)'"),
            (["add", "@" + alice.login], "chatctl: @\(alice.login) is you (name someone else)"),
            (["add", bob.login], "chatctl: you already asked @\(bob.login), who has not answered yet ('chatctl contacts' lists your contacts)"),
            (["accept", "@" + carol.login], "chatctl: @\(carol.login) has not asked to be your contact ('chatctl contacts' lists the requests waiting for your answer)"),
            (["reject", String(carol.id)], "chatctl: @\(carol.login) has not asked to be your contact ('chatctl contacts' lists the requests waiting for your answer)"),
            (["remove", "@" + carol.login], "chatctl: @\(carol.login) is not in your contacts ('chatctl contacts' lists them)"),
        ]
        for (arguments, line) in cases {
            let result = try alice.run(["contacts"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(line) && result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Nothing changed: Alice's one request stands, Carol knows of nobody.
        let list = try Self.contacts(alice)
        #expect(list.count == 1 && list.first?["id"] as? Int == bob.id && list.first?["ask"] as? String == "subscribe")
        #expect(try Self.contacts(carol).isEmpty)
        let missing = try alice.run(["contacts", "add"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("chatctl: "))
    }

    /// The chat view shows a request waiting as a notice naming the requester; `/accept`
    /// answers it, and the requester is then seen by the one who accepted.
    @Test func theChatViewShowsARequestAndSlashAcceptAnswersIt() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["dialogs", "create", "--private", "@" + bob.login]).status == 0)
        #expect(try alice.run(["contacts", "add", "@" + bob.login]).status == 0)

        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(bob))
        try terminal.startChatctl("chat @\(alice.login)")
        try terminal.waitFor("\(alice.login) asks to be your contact: /accept or /reject")
        try terminal.type("/accept")
        try terminal.press("Enter")
        try terminal.waitFor("accepted \(alice.login)'s contact request")
        try waitUntil("bob's acceptance on the server", timeout: 30, every: 0.5) {
            try Self.contact(bob.id, of: alice)?["subscription"] as? String == "both"
        }
        #expect(try Self.contact(alice.id, of: bob)?["subscription"] as? String == "both")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }
}
