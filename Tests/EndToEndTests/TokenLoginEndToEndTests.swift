import Foundation
import Testing
import TestSupport

/// `chatctl login --token-stdin`, `--token-file` and `CHATCTL_TOKEN` end to end: a session made
/// over REST (as a CI job or another app would) becomes chatctl's, for REST and chat alike; a
/// token that is no user's live session saves nothing; the token is never printed.
@Suite(.serialized) struct TokenLoginEndToEndTests {
    static let password = "token-pass-1"

    /// A user signed up and logged in over REST, not by chatctl: their id and a live session's token.
    static func userWithToken(on sandbox: SandboxProcess) throws -> (login: String, id: Int, token: String) {
        let login = uniqueLogin("tok")
        let id = try signUpUser(on: sandbox, login: login, password: password)
        return (login, id, try sandbox.createSession(login: login, password: password))
    }

    static func sessionFiles(_ cli: ChatctlRunner) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cli.stateDir.path + "/state")) ?? []).filter { $0.hasPrefix("session-") }
    }

    @Test func aTokensSessionBecomesChatctlsForRESTAndChat() throws {
        let sandbox = try SandboxProcess()
        let bob = try ChatUser("bob", sandbox: sandbox)
        let alice = try Self.userWithToken(on: sandbox)
        let cli = try ChatctlRunner(configPath: sandbox.configPath)

        let login = try cli.run(["login", "--token-stdin", "--json", "--verbose"], stdin: alice.token + "\n")
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let json = try #require(jsonObject(login.stdout))
        #expect(json["login_method"] as? String == "token")
        #expect(json["chat"] as? String == "connected", "chat logs in with the token")
        #expect((json["user"] as? [String: Any])?["id"] as? Int == alice.id)
        #expect((json["user"] as? [String: Any])?["login"] as? String == alice.login)
        #expect(login.stderr.contains("> GET \(sandbox.apiEndpoint)/session.json"), "the server was asked whose session it is")
        #expect(!login.stderr.contains(alice.token), "--verbose redacts the token")
        #expect(try cli.savedToken() == alice.token)

        let status = try cli.run(["status", "--json"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        #expect(jsonObject(status.stdout)?["login_method"] as? String == "token")
        #expect((jsonObject(status.stdout)?["user"] as? [String: Any])?["id"] as? Int == alice.id)
        let text = try cli.run(["status"])
        #expect(text.stdout.contains("\nMethod:   session token\n"), "\(text.stdout)")

        let overREST = try cli.run(["send", "@" + bob.login, "sent over REST", "--verbose"])
        #expect(overREST.status == 0, "stderr: \(overREST.stderr)")
        #expect(!overREST.stderr.contains(alice.token))
        let overChat = try cli.run(["send", "@" + bob.login, "--via", "chat", "sent over chat", "--verbose"])
        #expect(overChat.status == 0, "stderr: \(overChat.stderr)")
        #expect(!overChat.stderr.contains(alice.token), "chat's log redacts it too")
        let dialogs = try cli.run(["dialogs", "--json"])
        #expect(dialogs.status == 0, "stderr: \(dialogs.stderr)")
        #expect(dialogs.stdout.contains("sent over chat"))
        let heard = try bob.history("@" + alice.login).compactMap { $0["message"] as? String }
        // Both within one second: their order in history is the server's to choose.
        #expect(heard.sorted() == ["sent over REST", "sent over chat"].sorted())
    }

    @Test func theTokenMayComeFromAFileOrTheEnvironment() throws {
        let sandbox = try SandboxProcess()
        let alice = try Self.userWithToken(on: sandbox)

        let fromFile = try ChatctlRunner(configPath: sandbox.configPath)
        let file = fromFile.stateDir.file("token")
        try (alice.token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let viaFile = try fromFile.run(["login", "--token-file", file, "--no-chat"])
        #expect(viaFile.status == 0, "stderr: \(viaFile.stderr)")
        #expect(viaFile.stdout == "Logged in as \(alice.login) (id \(alice.id)) with a session token; chat skipped.\n")
        #expect(try fromFile.savedToken() == alice.token)
        // Written with the umask's 0644: used, with a line saying how to close it; at 0600, no line.
        #expect(viaFile.stderr == "chatctl: warning: \(file) holds a session token and every user of this machine can read it (chmod 600 \(file))\n",
                "\(viaFile.stderr)")
        #expect(chmod(file, 0o600) == 0)
        let closed = try fromFile.run(["login", "--token-file", file, "--no-chat"])
        #expect(closed.status == 0 && closed.stderr.isEmpty, "stderr: \(closed.stderr)")

        let fromEnvironment = try ChatctlRunner(configPath: sandbox.configPath)
        let viaEnvironment = try fromEnvironment.run(["login", "--no-chat", "--json"], environment: ["CHATCTL_TOKEN": alice.token])
        #expect(viaEnvironment.status == 0, "stderr: \(viaEnvironment.stderr)")
        #expect(jsonObject(viaEnvironment.stdout)?["login_method"] as? String == "token")
        #expect(!viaEnvironment.stdout.contains(alice.token) && !viaEnvironment.stderr.contains(alice.token))
        #expect(try fromEnvironment.run(["dialogs"]).status == 0)
    }

    /// Malformed (exit 2, no request), unknown or ended (exit 4), an application's session (exit 4):
    /// one line each, the token never in it, and no session saved, nor an existing one replaced.
    @Test func aTokenThatIsNoUsersLiveSessionSavesNothing() throws {
        let sandbox = try SandboxProcess()
        let alice = try Self.userWithToken(on: sandbox)
        let ended = try sandbox.createSession(login: alice.login, password: Self.password)
        #expect(try sandbox.request(method: "DELETE", path: "/session.json", token: ended).status == 200)
        let cases: [(token: String, status: Int32, says: String)] = [
            ("not a token", 2, "standard input does not hold a session token"),
            ("", 2, "standard input holds no session token"),
            (String(repeating: "0123456789abcdef", count: 3).prefix(40).description, 4, "the session token is unknown or has expired"),
            (ended, 4, "the session token is unknown or has expired"),
            (try sandbox.createSession(), 4, "the session token is an application session, which belongs to no user and cannot chat"),
        ]
        for bad in cases {
            let fresh = try ChatctlRunner(configPath: sandbox.configPath)
            let result = try fresh.run(["login", "--token-stdin"], stdin: bad.token + "\n")
            #expect(result.status == bad.status, "\(bad.says): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("chatctl: " + bad.says), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(bad.token.isEmpty || !result.stderr.contains(bad.token))
            #expect(Self.sessionFiles(fresh).isEmpty, "\(bad.says): nothing saved")
        }

        let bob = try ChatUser("bob", sandbox: sandbox)
        let kept = try bob.cli.savedToken()
        #expect(try bob.cli.run(["login", "--token-stdin"], stdin: ended + "\n").status == 4)
        #expect(try bob.cli.savedToken() == kept, "the session there was stays")
    }

    /// Two-second sessions (as in SessionEndToEndTests): a token's session that expired cannot be
    /// renewed without a password, and says so; with one it is renewed, and is a password's then.
    @Test func anExpiredTokenSessionSaysHowToLogInAgain() throws {
        let sandbox = try SandboxProcess(arguments: ["--token-ttl", "2"])
        let alice = try Self.userWithToken(on: sandbox)
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = try cli.run(["login", "--token-stdin", "--no-chat"], stdin: alice.token)
        #expect(login.status == 0, "stderr: \(login.stderr)")

        try waitForSavedSessionToExpire(cli)
        let expired = try cli.run(["dialogs"])
        #expect(expired.status == 4, "stderr: \(expired.stderr)")
        #expect(expired.stdout.isEmpty)
        #expect(expired.stderr.split(separator: "\n").count == 1, "one line: \(expired.stderr)")
        #expect(expired.stderr.contains("the session token has expired"))
        #expect(expired.stderr.contains("log in again with 'chatctl login', or pass a new token with 'chatctl login --token-stdin'"))
        #expect(!expired.stderr.contains(alice.token))
        #expect(try cli.savedToken() == alice.token, "the file is kept")
        let second = try ChatctlRunner(configPath: sandbox.configPath)
        let secondLogin = try second.run(["login", "--token-stdin", "--no-chat"],
                                         stdin: try sandbox.createSession(login: alice.login, password: Self.password))
        #expect(secondLogin.status == 0, "stderr: \(secondLogin.stderr)")

        let renewed = try cli.run(["status", "--json"], environment: ["CHATCTL_PASSWORD": Self.password])
        #expect(renewed.status == 0, "stderr: \(renewed.stderr)")
        #expect(jsonObject(renewed.stdout)?["login_method"] as? String == "password")
        #expect(try cli.savedToken() != alice.token)

        // The server out of reach: status goes by the saved expiry, and says the same of a token's.
        try waitForSavedSessionToExpire(second)
        _ = sandbox.stop()
        let unverified = try second.run(["status"])
        #expect(unverified.status == 4, "stderr: \(unverified.stderr)")
        #expect(unverified.stderr == "chatctl: the session token has expired (log in again with 'chatctl login', "
                + "or pass a new token with 'chatctl login --token-stdin')\n")
    }
}
