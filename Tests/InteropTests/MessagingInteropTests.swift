import Foundation
import Testing
import TestSupport

/// A chatctl user in a test: its own state directory and config.
struct Peer {
    let login: String
    let password: String
    let id: Int
    let config: String
    let state: TemporaryDirectory

    init(_ prefix: String, config: String, environment: [String: String] = [:]) throws {
        login = prefix + String(Int.random(in: 100_000...999_999))
        password = "interop-pass-\(Int.random(in: 10...99))"
        self.config = config
        state = try TemporaryDirectory(prefix: "chatctl-interop")
        let result = try runProcess(productPath("chatctl"), ["login", "--login", login, "--password-stdin", "--no-chat", "--json"],
                                    environment: ["CHATCTL_CONFIG": config, "CHATCTL_STATE_DIR": state.path],
                                    stdin: Data((password + "\n").utf8))
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let id = (object["user"] as? [String: Any])?["id"] as? Int else {
            throw TestSupportError("login of \(login) failed: \(result.stderr)")
        }
        self.id = id
    }

    var environment: [String: String] { ["CHATCTL_CONFIG": config, "CHATCTL_STATE_DIR": state.path, "CHATCTL_PASSWORD": password] }

    func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try runProcess(productPath("chatctl"), arguments, environment: environment, stdin: stdin.map { Data($0.utf8) }, timeout: 60)
    }

    /// Starts chatctl beside the test; `listen` says on stderr when it is ready.
    func background(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(productPath("chatctl"), arguments, environment: environment)
    }
}

private let goSendXMPP = "/usr/bin/go-sendxmpp"

/// chatctl and an XMPP client the project did not write, through the sandbox.
@Suite(.serialized) struct ChatctlAndGoSendXMPPTests {
    @Test func aMessageFromChatctlReachesGoSendXMPPAndBack() throws {
        try #require(FileManager.default.isExecutableFile(atPath: goSendXMPP), "go-sendxmpp is not installed; `make test` installs it")
        let sandbox = try SandboxProcess()
        let alice = try Peer("alice", config: sandbox.configPath), bob = try Peer("bob", config: sandbox.configPath)
        let server = sandbox.chatEndpoint.replacingOccurrences(of: "xmpp://", with: "")
        let bobJID = "\(bob.id)-\(sandbox.applicationId)@localhost", aliceJID = "\(alice.id)-\(sandbox.applicationId)@localhost"

        // There: go-sendxmpp listens as bob while chatctl sends. It says nothing when ready; the
        // sandbox logs the bind, after which every message to bob goes to that resource.
        let listener = try ChildProcess(goSendXMPP, ["-n", "-u", bobJID, "-p", bob.password, "-j", server, "-l"])
        try sandbox.waitForLog(containing: "bound \(bobJID)/")
        #expect(try alice.run(["send", "@" + bob.login, "hello from chatctl"]).status == 0)
        let heard = try? listener.stdout.waitForLine(containing: "\(aliceJID): hello from chatctl", timeout: 20)
        listener.signal(SIGTERM)
        let bobSaw = listener.finish(timeout: 10)
        #expect(heard != nil, "go-sendxmpp printed: \(bobSaw.stdout) \(bobSaw.stderr)")

        // And back: chatctl listens as alice while go-sendxmpp sends.
        let listen = try alice.background(["listen", "--count", "1", "--json", "--timeout", "30s"])
        try listen.waitUntilListening()
        let sent = try runProcess(goSendXMPP, ["-n", "-u", bobJID, "-p", bob.password, "-j", server, aliceJID],
                                  stdin: Data("hello from go-sendxmpp\n".utf8), timeout: 20)
        #expect(sent.status == 0, "go-sendxmpp: \(sent.stderr)")
        let heardBack = listen.finish(timeout: 30)
        #expect(heardBack.status == 0, "stderr: \(heardBack.stderr)")
        let message = try #require(try JSONSerialization.jsonObject(with: Data((heardBack.stdout.split(separator: "\n").first ?? "").utf8)) as? [String: Any])
        #expect((message["message"] as? String)?.hasPrefix("hello from go-sendxmpp") == true)
        #expect(message["sender_id"] as? Int == bob.id)
    }
}

/// Two chatctl users exchanging messages through a real Prosody (chat) with
/// the sandbox for REST; Prosody knows passwords, not tokens: chatAuth=password.
@Suite(.serialized) struct ChatctlThroughProsodyTests {
    @Test func linesSentOverProsodyArriveAtTheListener() throws {
        let sandbox = try SandboxProcess()
        let prosody = try ProsodyServer(security: .tls)
        let dir = try TemporaryDirectory()
        let config = try prosody.chatctlConfig(restFrom: sandbox, in: dir)

        let alice = try Peer("alice", config: config), bob = try Peer("bob", config: config)
        try prosody.register(name: "\(alice.id)-\(sandbox.applicationId)", password: alice.password)
        try prosody.register(name: "\(bob.id)-\(sandbox.applicationId)", password: bob.password)
        #expect(try alice.run(["dialogs", "create", "--private", "@" + bob.login]).status == 0)

        let listen = try bob.background(["listen", "--count", "3", "--json", "--timeout", "40s"])
        try listen.waitUntilListening()
        let send = try alice.run(["send", "@" + bob.login, "--lines"], stdin: "uno\ndos\ntres\n")
        #expect(send.status == 0, "stderr: \(send.stderr)")
        let heard = listen.finish(timeout: 40)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let texts = heard.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.compactMap { $0["message"] as? String }
        #expect(texts == ["uno", "dos", "tres"])
        // Acknowledged by Prosody's stream management: nothing left in alice's outbox.
        #expect(try alice.run(["outbox", "--json"]).stdout == "[]\n")
    }
}
