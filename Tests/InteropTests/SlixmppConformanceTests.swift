import Foundation
import Testing
import TestSupport

private let python = "/usr/bin/python3"
/// Where Debian's python3-slixmpp installs the library (for Debian's python3 only).
private let slixmpp = "/usr/lib/python3/dist-packages/slixmpp/__init__.py"

/// The sandbox as a standard XMPP client library sees it: slixmpp (Debian's python3-slixmpp, a
/// library this project did not write) signs in over STARTTLS trusting the sandbox's CA, and
/// goes through roster, ping, service discovery, carbons, stream management with resumption, a
/// MUC join the library itself reports complete, 1:1 and group chat both ways with a chatctl
/// user, markers and chat states (docs/protocol.md §7). The script
/// (`Resources/slixmpp_conformance.py`) prints `ok STEP` or `fail STEP: reason` per step; this
/// test plays chatctl's part when it prints `ready …`, and checks every step and chatctl's view.
@Suite(.serialized) struct SlixmppConformanceTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Resources/slixmpp_conformance.py")

    /// Every step the script reports, in order.
    static let steps = [
        "starttls-login", "roster", "ping", "disco", "sm-enabled", "more-logins", "carbons",
        "muc-join", "muc-forbidden", "1to1-to-chatctl", "marker-from-chatctl", "1to1-from-chatctl",
        "group-reflection", "group-from-chatctl", "chatstates", "markers", "muc-leave", "sm-resume", "resumed-room",
    ]

    init() throws {
        // Fail, never skip: `make test` installs python3-slixmpp.
        try #require(FileManager.default.isExecutableFile(atPath: python), "python3 is not installed; `make test` installs it")
        try #require(FileManager.default.fileExists(atPath: slixmpp), "python3-slixmpp is not installed; `make test` installs it")
    }

    private struct Account {
        let login: String
        let password: String
        let id: Int
    }

    private func account(_ prefix: String, on sandbox: SandboxProcess) throws -> Account {
        let login = prefix + String(Int.random(in: 100_000...999_999)), password = "slix-pass-\(Int.random(in: 10...99))"
        return Account(login: login, password: password, id: try signUpUser(on: sandbox, login: login, password: password))
    }

    @Test func aStandardClientLibraryWorksWithTheSandboxAndWithChatctl() throws {
        let sandbox = try SandboxProcess()
        let app = sandbox.applicationId
        func jid(_ id: Int) -> String { "\(id)-\(app)@localhost" }
        let alice = try Peer("alice", config: sandbox.configPath)
        let bob = try account("slixbob", on: sandbox), carol = try account("slixcarol", on: sandbox)
        let mallory = try account("slixmallory", on: sandbox)
        // Alice's group with Bob and Carol (not Mallory), and some history in it.
        let token = try sandbox.createSession(login: alice.login, password: alice.password)
        let roomName = "ops"
        let dialog = try #require(try sandbox.createDialog(token: token, type: 2, occupantIds: [bob.id, carol.id], name: roomName)["_id"] as? String)
        let history = ["history one", "history two", "history three"]
        for text in history { _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: text) }

        // chatctl listens as Alice: in the room, it is an occupant slixmpp must see.
        let listen = try alice.background(["listen", "--json", "--timeout", "180s"])
        defer {
            listen.signal(SIGTERM)
            _ = listen.finish(timeout: 10)
        }
        try listen.waitUntilListening()

        let endpoint = try #require(URL(string: sandbox.chatEndpoint))
        let settings: [String: Any] = [
            "host": try #require(endpoint.host), "port": try #require(endpoint.port),
            "ca": try #require(sandbox.config["caFile"] as? String), "domain": "localhost",
            "room": "\(app)_\(dialog)@muc.localhost", "room_name": roomName, "history": history, "alice": jid(alice.id),
            "bob": ["jid": jid(bob.id), "password": bob.password],
            "carol": ["jid": jid(carol.id), "password": carol.password],
            "mallory": ["jid": jid(mallory.id), "password": mallory.password],
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: settings), as: UTF8.self)
        let peer = try ChildProcess(python, ["-B", Self.script.path, json])
        defer {
            peer.signal(SIGTERM)
            _ = peer.finish(timeout: 10)
        }

        // chatctl's part, each when the script waits for it.
        try peer.stdout.waitForLine("the script's wait for chatctl's 1:1 message", timeout: 150) { $0 == "ready chatctl-1to1" }
        let direct = try alice.run(["send", "@" + bob.login, "1:1 from chatctl"])
        #expect(direct.status == 0, "send: \(direct.stderr)")
        try peer.stdout.waitForLine("the script's wait for chatctl's group message", timeout: 120) { $0 == "ready chatctl-group" }
        let group = try alice.run(["send", roomName, "group from chatctl", "--via", "chat"])
        #expect(group.status == 0, "send --via chat: \(group.stderr)")
        try peer.stdout.waitForLine("the script's end", timeout: 150) { $0 == "done" }
        let result = peer.finish(timeout: 30)
        #expect(result.status == 0 && !result.timedOut, "the script: \(result.stderr)")

        let lines = result.stdout.split(separator: "\n").map(String.init)
        for step in Self.steps {
            let failure = lines.first { $0.hasPrefix("fail \(step):") }
            #expect(lines.contains("ok \(step)"), "\(failure ?? "no line for \(step)")\nsandbox: \(sandbox.stderr.suffix(3000))")
        }
        #expect(!lines.contains { $0.hasPrefix("fail ") })

        // chatctl's side: slixmpp's 1:1 message under an ObjectId (not slixmpp's own id), its group
        // message once; each stored once.
        listen.signal(SIGTERM)
        let heard = listen.finish(timeout: 10)
        let messages = heard.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let slixId = lines.first { $0.hasPrefix("info 1to1-id ") }?.split(separator: " ").last.map(String.init)
        let direct1to1 = try #require(messages.first { $0["message"] as? String == "1:1 from slixmpp" }, "listen printed: \(heard.stdout)")
        let id = try #require(direct1to1["_id"] as? String)
        #expect(id.count == 24 && id.allSatisfy(\.isHexDigit) && id != slixId)
        #expect(direct1to1["sender_id"] as? Int == bob.id)
        #expect(messages.filter { $0["message"] as? String == "group from slixmpp" }.count == 1)
        let stored = try sandbox.messageTexts(token: token, dialogID: dialog)
        #expect(stored.filter { $0 == "group from slixmpp" }.count == 1 && stored.filter { $0 == "group from chatctl" }.count == 1,
                "stored: \(stored)")
        #expect(stored.contains("back in the room"), "sent after the resumption, from the room the session never left")
    }
}
