import Foundation
import Testing
import TestSupport

/// docs/protocol.md §2 end to end: sessions slide with use, a session the server
/// forgot is renewed with the password (or the command exits 4 saying how), and
/// `listen` keeps its session, and chat, alive.
@Suite(.serialized) struct SessionEndToEndTests {
    /// Two-second sessions, as in the expiry test of login: the shortest the login's own requests always outlive.
    @Test func aCommandAfterTheSessionExpiredRenewsItWithAPasswordOrExits4() throws {
        let sandbox = try SandboxProcess(arguments: ["--token-ttl", "2"])
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "while fresh"]).status == 0)

        try waitForSavedSessionToExpire(alice.cli)
        let expiredToken = try alice.cli.savedToken()
        let viaEnvironment = try alice.cli.run(["send", "@" + bob.login, "renewed by the environment"],
                                               environment: ["CHATCTL_PASSWORD": ChatUser.password])
        #expect(viaEnvironment.status == 0, "stderr: \(viaEnvironment.stderr)")
        #expect(viaEnvironment.stderr.isEmpty, "renewed silently")
        #expect(try alice.cli.savedToken() != expiredToken, "the new session is saved")

        try waitForSavedSessionToExpire(alice.cli)
        let file = alice.cli.stateDir.file("password")
        try (ChatUser.password + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let viaFile = try alice.cli.run(["send", "@" + bob.login, "renewed by the file", "--password-file", file])
        #expect(viaFile.status == 0, "stderr: \(viaFile.stderr)")

        // Chat authenticates with the token: one that expired is renewed over REST before chat sees it.
        try waitForSavedSessionToExpire(alice.cli)
        let overChat = try alice.cli.run(["send", "@" + bob.login, "--via", "chat", "renewed for chat"],
                                         environment: ["CHATCTL_PASSWORD": ChatUser.password])
        #expect(overChat.status == 0, "stderr: \(overChat.stderr)")

        try waitForSavedSessionToExpire(alice.cli)
        let without = try alice.cli.run(["send", "@" + bob.login, "no password at hand"])
        #expect(without.status == 4, "stderr: \(without.stderr)")
        #expect(without.stdout.isEmpty)
        #expect(without.stderr.split(separator: "\n").count == 1, "one line: \(without.stderr)")
        #expect(without.stderr.contains("expired"))
        #expect(without.stderr.contains("CHATCTL_PASSWORD") && without.stderr.contains("--password-file"))
        // Nothing is lost: the message waits in the outbox, and goes once a password is given.
        #expect(try alice.run(["outbox", "--json"]).stdout.contains("no password at hand"))
        let flushed = try alice.cli.run(["outbox", "flush"], environment: ["CHATCTL_PASSWORD": ChatUser.password])
        #expect(flushed.status == 0, "stderr: \(flushed.stderr)")

        let history = try bob.cli.run(["history", "@" + alice.login, "--json"], environment: ["CHATCTL_PASSWORD": ChatUser.password])
        #expect(history.status == 0, "stderr: \(history.stderr)")
        let items = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]] ?? []
        let texts = items.compactMap { $0["message"] as? String }
        #expect(texts == ["while fresh", "renewed by the environment", "renewed by the file", "renewed for chat", "no password at hand"],
                "each once")
    }

    @Test func aPasswordFileThatDoesNotExistIsBadInput() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let result = try alice.run(["dialogs", "--password-file", "/nonexistent/password"])
        #expect(result.status == 2)
        #expect(result.stderr == "chatctl: cannot read password file /nonexistent/password (check the path given to --password-file)\n")
    }

    /// `status` asks the server, which slides the session: the expiry shown is
    /// the extended one. The file is not rewritten for a few seconds gained.
    @Test func statusShowsTheExtendedExpiry() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let loggedIn = try alice.cli.savedSessionExpiry()
        // The server's header has whole seconds: wait until the next answer must name a later one.
        try waitUntil("a second past the login's expiry second", timeout: 10) {
            Date().timeIntervalSince1970 + 7200 >= loggedIn + 2
        }
        let status = try alice.run(["status", "--json"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let shown = try #require(jsonObject(status.stdout)?["expires_at"] as? String)
        let parsed = try #require(ISO8601DateFormatter().date(from: shown)).timeIntervalSince1970
        #expect(parsed > loggedIn)
        #expect(try alice.cli.savedSessionExpiry() == loggedIn, "seconds gained are not worth a write")
    }

    // MARK: listen

    /// Messages come over REST with send_to_chat, from a session of alice's own,
    /// so that only bob's listener depends on chatctl's sessions.
    static func sendAsAlice(_ text: String, to dialog: String, alice: ChatUser, sandbox: SandboxProcess) throws {
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: text, sendToChat: true)
    }

    static func privateDialog(of alice: ChatUser, with bob: ChatUser, on sandbox: SandboxProcess) throws -> String {
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        return try #require(try sandbox.createDialog(token: token, type: 3, occupantIds: [bob.id])["_id"] as? String)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func listenKeepsItsSessionAliveAndHearsWhatComesAfterEachRefresh() throws {
        let sandbox = try SandboxProcess(arguments: ["--token-ttl", "2"])
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let dialog = try Self.privateDialog(of: alice, with: bob, on: sandbox)
        let token = try bob.cli.savedToken()
        let listener = try bob.cli.background(["listen", "--json", "--verbose", "--count", "3", "--timeout", "60s"])
        try listener.waitUntilListening()
        let refresh = "> GET \(sandbox.apiEndpoint)/session.json"
        for round in 1...3 {
            try listener.stderr.wait(for: "session refresh \(round)", timeout: 20) { Self.count(refresh, in: $0) >= round }
            try Self.sendAsAlice("after refresh \(round)", to: dialog, alice: alice, sandbox: sandbox)
            try listener.stdout.waitForLine("the line of refresh \(round)", timeout: 20) {
                jsonObject($0)?["message"] as? String == "after refresh \(round)"
            }
        }
        let heard = listener.finish(timeout: 20)
        #expect(heard.status == 0, "stderr: \(heard.stderr.suffix(2000))")
        // Longer than a session's lifetime has passed, yet it is the one of the login: kept, never re-opened.
        #expect(Self.count("> POST \(sandbox.apiEndpoint)/session.json", in: heard.stderr) == 0)
        #expect(try bob.cli.savedToken() == token)
        #expect(try sandbox.request(method: "GET", path: "/session.json", token: token).status == 200)
    }

    /// Bob's session is ended on the server behind the listener's back, then
    /// chat goes down. Either chat refuses the old token on the reconnect and the
    /// listener renews the session over REST and connects with the new one; or
    /// its keep-alive found the session gone first and renewed it, and the
    /// reconnect must use that new token, not the one chat first had.
    @Test(arguments: [false, true])
    func aChatReconnectUsesTheRenewedToken(keepAliveNoticesFirst: Bool) throws {
        let chat = try RestartableChat()
        let dialog = try Self.privateDialog(of: chat.alice, with: chat.bob, on: chat.sandbox)
        var environment = ["CHATCTL_PASSWORD": ChatUser.password]
        if keepAliveNoticesFirst { environment["CHATCTL_SESSION_REFRESH_EVERY"] = "0.2" }
        let listener = try chat.bob.cli.background(["listen", "--json", "--count", "1", "--timeout", "90s"], environment: environment)
        try listener.waitUntilListening()
        let old = try chat.bob.cli.savedToken()
        #expect(try chat.sandbox.request(method: "DELETE", path: "/session.json", token: old).status == 200)
        if keepAliveNoticesFirst {
            try waitUntil("the listener to renew its session", timeout: 30) { try chat.bob.cli.savedToken() != old }
        }
        try chat.restartSandbox()
        try listener.stderr.waitForLine(containing: "reconnected", timeout: 60)
        #expect(try chat.bob.cli.savedToken() != old, "renewed and saved")
        try Self.sendAsAlice("after the reconnect", to: dialog, alice: chat.alice, sandbox: chat.sandbox)
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        #expect(jsonObject(heard.stdout)?["message"] as? String == "after the reconnect")
    }

    // MARK: send --lines

    /// A stream fed for longer than the session's lifetime over chat alone (which does not
    /// slide it), then a reconnect: the session was kept alive between batches, so the
    /// reconnect authenticates with it and the stream goes on. No password is at hand, so
    /// a session let go would have left the second line in the outbox (exit 3).
    @Test func sendLinesKeepsItsSessionAliveForTheReconnect() throws {
        let chat = try RestartableChat(extraArguments: ["--token-ttl", "3", "--log-level", "debug"])
        _ = try Self.privateDialog(of: chat.alice, with: chat.bob, on: chat.sandbox)
        let token = try chat.alice.cli.savedToken()
        let sender = try chat.alice.cli.background(["send", "@" + chat.bob.login, "--lines"], input: .pipe)
        try sender.write("before the token's lifetime\n")
        try chat.bob.waitUntilServerHas("before the token's lifetime", on: chat.sandbox, timeout: 30)
        // Five refreshes at least a second apart (SessionRefreshSchedule.minimumInterval) span
        // more than the 3 s lifetime: only they kept the session.
        try chat.sandbox.waitForRefreshes(5, answered: "200")
        try chat.restartSandbox()
        try sender.write("after the reconnect\n")
        sender.closeInput()
        let sent = sender.finish(timeout: 60)
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        #expect(sent.stderr.contains("reconnected"), "the connection was made again: \(sent.stderr)")
        #expect(try chat.alice.cli.savedToken() == token, "kept, never renewed")
        let bobsToken = try chat.sandbox.createSession(login: chat.bob.login, password: ChatUser.password)
        let dialog = try #require(try chat.sandbox.dialogIDs(token: bobsToken).first)
        #expect(try chat.sandbox.messageTexts(token: bobsToken, dialogID: dialog) == ["before the token's lifetime", "after the reconnect"])
    }

    /// The session ended behind the stream's back, no password at hand: said once, and the
    /// lines still go over the open connection (only a reconnect would need the session).
    @Test func sendLinesWithoutItsSessionSaysSoOnceAndGoesOn() throws {
        let sandbox = try SandboxProcess(arguments: ["--log-level", "debug"])
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        _ = try Self.privateDialog(of: alice, with: bob, on: sandbox)
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe,
                                              environment: ["CHATCTL_SESSION_REFRESH_EVERY": "0.2"])
        try sender.write("with a session\n")
        try bob.waitUntilServerHas("with a session", on: sandbox, timeout: 30)
        #expect(try sandbox.request(method: "DELETE", path: "/session.json", token: try alice.cli.savedToken()).status == 200)
        try sender.stderr.waitForLine(containing: "keep the session alive", timeout: 20)
        // Refused again and again (each refresh interval): told once all the same.
        try sandbox.waitForRefreshes(3, answered: "401")
        try sender.write("without one\n")
        sender.closeInput()
        let sent = sender.finish(timeout: 30)
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
        let lines = sent.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(sent.stderr)")
        #expect(lines.first?.hasPrefix("chatctl: keep the session alive: the session has expired") == true)
        #expect(lines.first?.contains("CHATCTL_PASSWORD") == true)
        #expect(lines.first?.hasSuffix("sending goes on while the connection lasts") == true)
        try bob.waitUntilServerHas("without one", on: sandbox, timeout: 30)
    }

    @Test func withoutAPasswordListenSaysOnceThatTheSessionIsGoneAndExits4() throws {
        let sandbox = try SandboxProcess()
        let bob = try ChatUser("bob", sandbox: sandbox)
        let listener = try bob.cli.background(["listen", "--timeout", "60s"], environment: ["CHATCTL_SESSION_REFRESH_EVERY": "0.2"])
        try listener.waitUntilListening()
        #expect(try sandbox.request(method: "DELETE", path: "/session.json", token: try bob.cli.savedToken()).status == 200)
        let heard = listener.finish(timeout: 30)
        #expect(!heard.timedOut)
        #expect(heard.status == 4, "stderr: \(heard.stderr)")
        let lines = heard.stderr.split(separator: "\n")
        #expect(lines.count == 2, "the ready line, then one line: \(heard.stderr)")
        #expect(lines.last?.hasPrefix("chatctl: keep the session alive: the session has expired") == true)
        #expect(lines.last?.contains("CHATCTL_PASSWORD") == true)
    }

    @Test(arguments: ["soon", "inf", "0"])
    func aBadRefreshOverrideIsAUsageError(value: String) throws {
        let sandbox = try SandboxProcess()
        let bob = try ChatUser("bob", sandbox: sandbox)
        let result = try bob.cli.run(["listen", "--timeout", "5s"], environment: ["CHATCTL_SESSION_REFRESH_EVERY": value])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("chatctl: CHATCTL_SESSION_REFRESH_EVERY must be a positive number of seconds, not '\(value)'"))
    }
}

extension SandboxProcess {
    /// Waits until the sandbox has answered `count` more session look-ups (`GET /session.json`,
    /// what a long-running chatctl refreshes its session with) with `status`, counted in its
    /// debug log from now on.
    func waitForRefreshes(_ count: Int, answered status: String, timeout: Double = 30) throws {
        let line = "GET /session.json -> \(status)"
        let before = stderr.components(separatedBy: line).count
        try waitUntil("\(count) session refreshes answered \(status)", timeout: timeout, every: 0.05) {
            stderr.components(separatedBy: line).count >= before + count
        }
    }
}
