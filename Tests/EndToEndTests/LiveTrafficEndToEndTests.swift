import Foundation
import Testing
import TestSupport

/// `listen` and what arrives besides SDK chat (docs/protocol.md §7), with the real
/// binaries: a plain XMPP client (Debian's go-sendxmpp) writing to someone it has no
/// dialog with, your own sends from a second device, and a system notification that
/// makes listen follow a new group before its first message.
@Suite(.serialized) struct LiveTrafficEndToEndTests {
    let sandbox: SandboxProcess
    init() throws {
        // Fail, never skip: `make test` installs it.
        try #require(FileManager.default.isExecutableFile(atPath: PlainXMPPClient.path), "go-sendxmpp is not installed; `make test` installs it")
        sandbox = try SandboxProcess()
    }

    @Test func aPlainXMPPClientsMessageReachesListenHistoryAndSearch() throws {
        let bob = try ChatUser("bob", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let listener = try bob.cli.background(["listen", "--count", "1", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        // Carol has never used chatctl with bob: there is no dialog between them yet.
        let sent = try PlainXMPPClient(sandbox).send("hello from a plain client, quasar", as: carol, to: bob)
        #expect(sent.status == 0, "go-sendxmpp: \(sent.stderr)")
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let message = try #require(jsonObject(heard.stdout), "stdout: \(heard.stdout)")
        #expect(message["message"] as? String == "hello from a plain client, quasar")
        #expect(message["sender_id"] as? Int == carol.id && message["recipient_id"] as? Int == bob.id)
        let dialog = try #require(message["chat_dialog_id"] as? String)
        #expect((message["_id"] as? String)?.count == 24)
        // The cache has it, and so does the server: history online shows it once, search finds it.
        #expect(try bob.history("@" + carol.login, offline: true).compactMap { $0["_id"] as? String } == [message["_id"] as? String])
        let online = try bob.history("@" + carol.login)
        #expect(online.compactMap { $0["message"] as? String } == ["hello from a plain client, quasar"])
        #expect(online.first?["chat_dialog_id"] as? String == dialog)
        let found = try bob.run(["search", "quasar", "--json"])
        #expect(found.status == 0 && found.stdout.contains("hello from a plain client"), "search: \(found.stdout) \(found.stderr)")
    }

    /// What you send from your phone shows in your laptop's listen as yours; it is not
    /// counted and --exec does not run for it (a bot must never answer itself).
    @Test func aSendFromYourOtherDeviceShowsAsOutgoing() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let phone = try ChatctlRunner(configPath: sandbox.configPath)
        #expect(try phone.login(alice.login, password: ChatUser.password, extra: ["--no-chat"]).status == 0)
        let dir = try TemporaryDirectory()
        let hook = dir.file("hook.log")
        let listener = try alice.cli.background(["listen", "--count", "1", "--json", "--timeout", "60s", "--exec", "cat >> \(hook); echo >> \(hook)"])
        try listener.waitUntilListening()
        let fromPhone = try phone.run(["send", "@" + bob.login, "--via", "chat", "sent from my phone"])
        #expect(fromPhone.status == 0, "stderr: \(fromPhone.stderr)")
        let mine = try listener.stdout.waitForLine("the phone's message", timeout: 30) { jsonObject($0)?["message"] as? String == "sent from my phone" }
        #expect(jsonObject(mine)?["outgoing"] as? Bool == true)
        #expect(jsonObject(mine)?["sender_id"] as? Int == alice.id && jsonObject(mine)?["recipient_id"] as? Int == bob.id)
        #expect(try bob.run(["send", "@" + alice.login, "an answer"]).status == 0)
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "--count 1 counted bob's answer, not our own message; stderr: \(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(lines.compactMap { $0["message"] as? String } == ["sent from my phone", "an answer"])
        #expect(lines.last?["outgoing"] == nil, "only ours are marked")
        #expect(try String(contentsOfFile: hook, encoding: .utf8) == "an answer\n", "--exec ran for bob's message only")
        #expect(try alice.history("@" + bob.login, offline: true).contains { $0["message"] as? String == "sent from my phone" })
    }

    /// A system notification (sent here by a plain client, as any SDK sends it) makes
    /// listen say so, cache the group and join its room before the first message.
    @Test func aNotificationMakesListenFollowANewGroupFromItsFirstMessage() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let listener = try bob.cli.background(["listen", "--count", "2", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        let name = uniqueLogin("ops")
        #expect(try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login]).status == 0)
        let created = try alice.run(["dialogs", "--json", "--offline"])
        let dialogs = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [[String: Any]])
        let group = try #require(dialogs.first { $0["name"] as? String == name }?["_id"] as? String)
        let headline = "<message to='\(PlainXMPPClient.jid(bob, sandbox))' type='headline' id='\(group.prefix(16))00000001'>"
            + "<extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier>"
            + "<notification_type>1</notification_type><_id>\(group)</_id><name>\(name)</name><type>2</type>"
            + "<occupants_ids>\(alice.id),\(bob.id)</occupants_ids></extraParams></message>"
        let sent = try PlainXMPPClient(sandbox).sendRaw(headline, as: alice, to: bob)
        #expect(sent.status == 0, "go-sendxmpp: \(sent.stderr)")
        try listener.stderr.waitForLine(containing: "\(alice.login) added you to \(name)", timeout: 30)
        for text in ["first in the group", "second"] { #expect(try alice.run(["send", name, text]).status == 0) }
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(lines.compactMap { $0["message"] as? String } == ["first in the group", "second"])
        #expect(lines.allSatisfy { $0["chat_dialog_id"] as? String == group })
        let cached = try bob.run(["dialogs", "--offline", "--json"])
        #expect(cached.stdout.contains(group), "the group is in bob's cache")
    }
}

/// Debian's go-sendxmpp as a plain XMPP client (no QuickBlox fields, its own ids),
/// logging in to the sandbox as a chatctl user with that user's password.
struct PlainXMPPClient {
    static let path = "/usr/bin/go-sendxmpp"
    let server: String

    init(_ sandbox: SandboxProcess) throws {
        let endpoint = try #require(URL(string: sandbox.chatEndpoint))
        server = "\(endpoint.host ?? "127.0.0.1"):\(endpoint.port ?? 0)"
        self.sandbox = sandbox
    }
    private let sandbox: SandboxProcess

    static func jid(_ user: ChatUser, _ sandbox: SandboxProcess) -> String {
        "\(user.id)-\(sandbox.config["appId"] as? Int ?? 1)@\(sandbox.config["chatDomain"] as? String ?? "localhost")"
    }

    /// One chat message; -n: the sandbox's certificate is self-signed.
    func send(_ text: String, as sender: ChatUser, to recipient: ChatUser) throws -> ProcessResult {
        try run([Self.jid(recipient, sandbox)], as: sender, stdin: text + "\n")
    }

    /// A stanza written as it is (`--raw`).
    func sendRaw(_ xml: String, as sender: ChatUser, to recipient: ChatUser) throws -> ProcessResult {
        try run(["--raw", Self.jid(recipient, sandbox)], as: sender, stdin: xml + "\n")
    }

    private func run(_ arguments: [String], as sender: ChatUser, stdin: String) throws -> ProcessResult {
        try runProcess(Self.path, ["-u", Self.jid(sender, sandbox), "-p", ChatUser.password, "-j", server, "-n", "--timeout", "10"] + arguments,
                       stdin: Data(stdin.utf8), timeout: 30)
    }
}
