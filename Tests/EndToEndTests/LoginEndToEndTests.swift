import Foundation
import Testing
import TestSupport

/// Logging in, end to end: the real chatctl against the real chatctl-sandbox.
@Suite(.serialized) struct LoginEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    @Test func newLoginSignsUpAndConnectsToChat() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        let result = try cli.login(login, password: "first-pass-1", extra: ["--json", "--full-name", "New User"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(jsonObject(result.stdout))
        #expect(json["signed_up"] as? Bool == true)
        #expect(json["chat"] as? String == "connected")
        let user = try #require(json["user"] as? [String: Any])
        #expect(user["login"] as? String == login)
        #expect(user["full_name"] as? String == "New User")
        #expect((user["id"] as? Int ?? 0) > 0)
    }

    /// As on the service, an email alone signs up; the same email again is "taken" and logs in.
    @Test func anEmailAloneSignsUpThenLogsIn() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let email = uniqueLogin("mail") + "@example.com"
        let first = try cli.login(email, password: "mail-pass-12", extra: ["--json", "--no-chat"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let signedUp = try #require(jsonObject(first.stdout))
        #expect(signedUp["signed_up"] as? Bool == true)
        let user = try #require(signedUp["user"] as? [String: Any])
        #expect(user["email"] as? String == email)
        #expect(user["login"] is NSNull)
        let again = try cli.login(email, password: "mail-pass-12", extra: ["--json", "--no-chat"])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(jsonObject(again.stdout)?["signed_up"] as? Bool == false)
        #expect(try cli.login(email, password: "wrong-pass-12", extra: ["--no-chat"]).status == 4)
    }

    @Test func sameLoginAgainFallsBackThrough422() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        #expect(try cli.login(login, password: "second-pass-2").status == 0)
        let again = try cli.login(login, password: "second-pass-2", extra: ["--verbose"])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.hasPrefix("Logged in as \(login) (id "))
        #expect(again.stdout.hasSuffix("; chat connected.\n"))
        // --verbose shows the 422 from sign-up followed by the log-in.
        let lines = again.stderr.split(separator: "\n")
        let signUp422 = try #require(lines.firstIndex { $0.contains("422") })
        #expect(lines[signUp422...].contains { $0.contains("/login.json") })
        #expect(!again.stderr.contains("second-pass-2"))
    }

    @Test func humanOutputSaysWhatHappened() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        let first = try cli.login(login, password: "human-pass-3", extra: ["--no-chat"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(first.stdout.hasPrefix("Signed up and logged in as \(login) (id "))
        #expect(first.stdout.hasSuffix("; chat skipped.\n"))
        #expect(first.stdout.split(separator: "\n").count == 1)
    }

    @Test func wrongPasswordExits4WithoutLeakingIt() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        #expect(try cli.login(login, password: "right-pass-4").status == 0)
        let wrong = try cli.login(login, password: "wrong-pass-4", extra: ["--verbose"])
        #expect(wrong.status == 4)
        #expect(wrong.stdout.isEmpty)
        let last = try #require(wrong.stderr.split(separator: "\n").last)
        #expect(last.hasPrefix("chatctl: "))
        #expect(last.contains("Unauthorized"))
        #expect(!wrong.stderr.contains("wrong-pass-4"))
    }

    @Test func noSignupWithUnknownLoginExits4() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let result = try cli.login(uniqueLogin(), password: "whatever-5", extra: ["--no-signup"])
        #expect(result.status == 4, "stderr: \(result.stderr)")
    }

    @Test func statusAndLogout() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        #expect(try cli.run(["status"]).status == 4)
        #expect(try cli.login(login, password: "status-pass-6").status == 0)

        let status = try cli.run(["status", "--json"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let json = try #require(jsonObject(status.stdout))
        #expect((json["user"] as? [String: Any])?["login"] as? String == login)
        let expires = try #require(json["expires_at"] as? String)
        #expect(expires.hasSuffix("Z") && expires.count == 20)
        let endpoints = try #require(json["endpoints"] as? [String: String])
        #expect(endpoints["api"] == sandbox.apiEndpoint)
        #expect(endpoints["chat"] == sandbox.chatEndpoint)

        let human = try cli.run(["status"])
        #expect(human.stdout.hasPrefix("Logged in as \(login) (id "))
        #expect(human.stdout.contains(sandbox.apiEndpoint))

        // The session file is private and holds no password.
        let dir = cli.stateDir.path + "/state"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("session-") }
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/" + files[0])
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let saved = try String(contentsOfFile: dir + "/" + files[0], encoding: .utf8)
        #expect(!saved.contains("status-pass-6"))
        let token = try #require((jsonObject(saved)?["token"]) as? String)

        let logout = try cli.run(["logout"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("session-") }.isEmpty)
        let after = try cli.run(["status"])
        #expect(after.status == 4)
        #expect(after.stderr.contains("chatctl login"))
        // The server ended the session too: its token no longer works.
        let check = try sandbox.request(method: "GET", path: "/session.json", token: token)
        #expect(check.status == 401)
    }

    @Test func twoProcessesLoggingInAtOnce() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let other = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        let results = ResultBox<ProcessResult>()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if let r = try? (i == 0 ? cli : other).login(login, password: "race-pass-7", extra: ["--json"]) { results.append(r) }
        }
        let both = results.all
        #expect(both.count == 2)
        for r in both { #expect(r.status == 0, "stderr: \(r.stderr)") }
        let signedUp = both.compactMap { jsonObject($0.stdout)?["signed_up"] as? Bool }
        #expect(signedUp.sorted { !$0 && $1 } == [false, true], "exactly one of the two signs up")
        let ids = Set(both.compactMap { (jsonObject($0.stdout)?["user"] as? [String: Any])?["id"] as? Int })
        #expect(ids.count == 1)
    }

    /// A password on the command line is refused with a pointer to the ways that keep it out of argv, never echoed.
    @Test func aPasswordFlagDoesNotExist() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let result = try cli.run(["login", "--login", uniqueLogin(), "--password", "secret-pass-8"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("login takes no password on the command line") && result.stderr.contains("--password-stdin"))
        #expect(!result.stderr.contains("secret-pass-8"))
    }

    @Test func noPasswordSourceIsAUsageErrorNotAHang() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let result = try cli.run(["login", "--login", uniqueLogin()], timeout: 10)
        #expect(!result.timedOut)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--password-stdin"))
    }

    @Test func passwordFromFileAndEnvironment() throws {
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        let file = cli.stateDir.file("pw")
        try "file-pass-9\n".write(toFile: file, atomically: true, encoding: .utf8)
        let viaFile = try cli.run(["login", "--login", login, "--password-file", file, "--no-chat"])
        #expect(viaFile.status == 0, "stderr: \(viaFile.stderr)")
        // The umask's 0644 lets every user read it: used, and said so.
        #expect(viaFile.stderr.contains("warning: \(file) holds a password and every user of this machine can read it (chmod 600 \(file))"),
                "\(viaFile.stderr)")
        let viaEnv = try cli.run(["login", "--login", login, "--no-chat"], environment: ["CHATCTL_PASSWORD": "file-pass-9"])
        #expect(viaEnv.status == 0, "stderr: \(viaEnv.stderr)")
        #expect(viaEnv.stdout.hasPrefix("Logged in as"))
    }
}

/// Waits until the server has forgotten the saved session: the clock past its
/// expiry, plus the second the header's whole seconds may have cut off.
/// (chatctl no longer judges by the saved expiry; the server's 401 decides.)
func waitForSavedSessionToExpire(_ cli: ChatctlRunner) throws {
    let expiresAt = try cli.savedSessionExpiry() + 1
    try waitUntil("the saved session to expire at \(expiresAt)", timeout: 30) { Date().timeIntervalSince1970 >= expiresAt }
}

/// Failures before and without the server.
@Suite struct LoginFailureEndToEndTests {
    /// A config whose endpoints are a listener that records connections, to
    /// prove that input checks happen before any network call.
    static func configPointingAtAListenerThatNeverAnswers() throws -> (LoopbackListener, TemporaryDirectory) {
        let listener = try LoopbackListener()
        let config = try TemporaryDirectory()
        try #"{"appId":1,"authKey":"k","authSecret":"s","endpoints":{"api":"http://127.0.0.1:\#(listener.port)","chat":"xmpp://127.0.0.1:\#(listener.port)"}}"#
            .write(toFile: config.file("config.json"), atomically: true, encoding: .utf8)
        return (listener, config)
    }

    @Test(arguments: ["1abc", "ab", "has space", "bad@", "x_y_z"])
    func invalidLoginExits2WithoutAnyNetworkCall(login: String) throws {
        let (listener, config) = try Self.configPointingAtAListenerThatNeverAnswers()
        let cli = try ChatctlRunner(configPath: config.file("config.json"))
        let result = try cli.login(login, password: "valid-pass-1")
        #expect(result.status == 2)
        #expect(result.stderr.contains("Use your email or alphanumeric characters in a range from 3 to 50"))
        #expect(listener.pendingConnections() == 0, "no network call may be made")
    }

    @Test func invalidDisplayNameAndPasswordExit2() throws {
        let (listener, config) = try Self.configPointingAtAListenerThatNeverAnswers()
        let cli = try ChatctlRunner(configPath: config.file("config.json"))
        let badName = try cli.login("alice", password: "valid-pass-1", extra: ["--full-name", "A  B"])
        #expect(badName.status == 2)
        #expect(badName.stderr.contains("Cannot contain more than one space in a row"))
        let badPassword = try cli.login("alice", password: "short")
        #expect(badPassword.status == 2)
        #expect(!badPassword.stderr.contains("short"))
        #expect(listener.pendingConnections() == 0)
    }

    @Test func stoppedSandboxExits75NamingTheEndpoint() throws {
        let sandbox = try SandboxProcess()
        let endpoint = sandbox.apiEndpoint
        sandbox.stop()
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let result = try cli.login(uniqueLogin(), password: "valid-pass-2", timeout: 30)
        #expect(result.status == 75, "stderr: \(result.stderr)")
        #expect(result.stderr.contains(endpoint))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func missingConfigNamesTheFile() throws {
        let cli = try ChatctlRunner(configPath: "/nonexistent/chatctl.json")
        let result = try cli.login("alice", password: "valid-pass-3")
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/chatctl.json"))
    }

    /// The saved expiry is the server's (`--token-ttl`): the test waits for the clock to pass it.
    /// Two seconds, so that the login's own requests never outlive it on a loaded machine.
    @Test func expiredSessionSaysHowToLogInOrRenewsWithPassword() throws {
        let sandbox = try SandboxProcess(arguments: ["--token-ttl", "2"])
        let cli = try ChatctlRunner(configPath: sandbox.configPath)
        let login = uniqueLogin()
        #expect(try cli.login(login, password: "expire-pass-1", extra: ["--no-chat"]).status == 0)
        try waitForSavedSessionToExpire(cli)
        let expired = try cli.run(["status"])
        #expect(expired.status == 4)
        #expect(expired.stderr.contains("expired"))
        #expect(expired.stderr.contains("chatctl login"))

        #expect(try cli.login(login, password: "expire-pass-1", extra: ["--no-chat"]).status == 0)
        try waitForSavedSessionToExpire(cli)
        let renewed = try cli.run(["status", "--json"], environment: ["CHATCTL_PASSWORD": "expire-pass-1"])
        #expect(renewed.status == 0, "stderr: \(renewed.stderr)")
        #expect((jsonObject(renewed.stdout)?["user"] as? [String: Any])?["login"] as? String == login)
    }
}

/// The password prompt on a real terminal: chatctl gets a pseudo-terminal the test drives.
@Suite struct PasswordPromptTests {
    @Test func promptsOnATerminalWithoutEchoingThePassword() throws {
        let sandbox = try SandboxProcess()
        let state = try TemporaryDirectory()
        let login = uniqueLogin("pty")
        // A new account on a terminal is confirmed and its password typed twice: --yes
        // and --full-name leave just the passwords to ask; --no-chat-view, no dialogs after.
        let terminal = try PseudoTerminal(productPath("chatctl"), ["login", "--login", login, "--no-chat", "--yes",
                                                                   "--full-name", "Pty User", "--no-chat-view"],
                                          environment: ["CHATCTL_CONFIG": sandbox.configPath, "CHATCTL_STATE_DIR": state.path])
        // Typed once the prompt is up and echo is off, as a person would.
        try terminal.output.wait(for: "the password prompt", timeout: 30) { $0.contains("Password for \(login): ") }
        try waitUntil("echo off on the terminal", timeout: 10) { try !terminal.echoes() }
        try terminal.type("pty-secret-99\n")
        try terminal.output.wait(for: "the second password prompt", timeout: 30) { $0.contains("Password again: ") }
        try waitUntil("echo off on the terminal", timeout: 10) { try !terminal.echoes() }
        try terminal.type("pty-secret-99\n")
        let status = try #require(terminal.waitForExit(timeout: 30), "chatctl login is still running: \(terminal.output.text)")
        #expect(terminal.output.waitForEnd(timeout: 10))
        let output = terminal.output.text
        #expect(status == 0, "output: \(output)")
        #expect(output.contains("Password for \(login): "))
        #expect(output.contains("Signed up and logged in as \(login)"))
        #expect(!output.contains("pty-secret-99"), "the password must not be echoed")
    }
}
