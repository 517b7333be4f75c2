import Foundation
import Testing
import TestSupport

/// `chatctl login` typed by a person (tmux), against the real sandbox: the questions of
/// QuickBlox's login screen, its status line, the dialogs after; a pipe still as before.
@Suite(.serialized) struct InteractiveLoginEndToEndTests {
    static let loginHint = "Use your email or alphanumeric characters in a range from 3 to 50. First character must be a letter."
    static let password = "typed-pass-1"

    /// Wide enough for the hints on one row; the session's config and a state directory of its own.
    static func terminal(configPath: String, state: TemporaryDirectory) throws -> TmuxSession {
        try TmuxSession(width: 160, height: 30, environment: [
            "CHATCTL_CONFIG": configPath, "CHATCTL_STATE_DIR": state.path + "/state",
            "PATH": productsDirectory.path + ":/usr/bin:/bin"])
    }

    /// Everything the terminal was sent (the status line's steps are rewritten, so the screen keeps only the last).
    static func record(_ terminal: TmuxSession, into file: String) throws {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        try terminal.tmux(["pipe-pane", "-t", "0", "-o", "cat >> \(file)"])
    }

    /// The shell's `$?` after the last command, printed at the prompt.
    static func lastStatus(_ terminal: TmuxSession) throws -> Int? {
        // The shell waits when its prompt is the last row written, with nothing typed after it.
        try terminal.waitForScreen("the shell's prompt again") { screen in
            screen.components(separatedBy: "\n").last { !$0.isEmpty } == TmuxSession.prompt
        }
        let screen = try terminal.runAtPromptReading("echo status=$?", prefix: "status=")
        return Int(screen)
    }

    @Test func aNewAccountAfterAnInvalidLoginIsConfirmedWithThePasswordTwiceAndTheStepsShow() throws {
        let sandbox = try SandboxProcess()
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        let log = state.file("terminal.log")
        try Self.record(terminal, into: log)
        let login = uniqueLogin("newbie")

        try terminal.runAtPrompt("chatctl login", expecting: "Login:")
        try terminal.type("1nvalid")
        try terminal.press("Enter")
        var screen = try terminal.waitForScreen("the login asked again") { screen in
            screen.components(separatedBy: "\n").filter { $0.hasPrefix("Login:") }.count == 2
        }
        #expect(screen.contains(Self.loginHint))

        try terminal.type(login)
        try terminal.press("Enter")
        try terminal.waitFor("No account '\(login)' yet. Create it? [y/N]")
        try terminal.type("y")
        try terminal.press("Enter")
        try terminal.waitFor("Display name [\(login)]:")
        try terminal.type("a  b")
        try terminal.press("Enter")
        try terminal.waitFor("Cannot contain more than one space in a row.")
        try terminal.type("Newbie Two")
        try terminal.press("Enter")
        try terminal.waitFor("Password for \(login):")
        try terminal.type(Self.password)
        try terminal.press("Enter")
        screen = try terminal.waitFor("Password again:")
        #expect(!screen.contains(Self.password), "the password is not echoed")
        try terminal.type(Self.password)
        try terminal.press("Enter")

        try terminal.waitFor("Signed up and logged in as \(login) (id ")
        try terminal.waitFor("Open your dialogs now? [Y/n]")
        try terminal.type("n")
        try terminal.press("Enter")
        #expect(try Self.lastStatus(terminal) == 0)

        try waitUntil("the steps in the terminal's log", timeout: 10) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.contains("Connecting to chat…")
        }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let steps = ["Signing up…", "Logging in…", "Connecting to chat…", "Signed up and logged in as"]
        let places = steps.map { text.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil }, "every step shown")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "in order")
        #expect(text.contains("\r\u{1B}[KLogging in…"), "on one line, rewritten")

        // The account is real, with the name typed; the session was saved.
        try terminal.runAtPrompt("chatctl users @\(login)", expecting: "Newbie Two")
        #expect(try !sandbox.createSession(login: login, password: Self.password).isEmpty)
    }

    @Test func aWrongPasswordIsAskedAgainThenTheDialogsOpen() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "welcome back"]).status == 0)
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)

        try terminal.runAtPrompt("chatctl login --login \(alice.login)", expecting: "Password for \(alice.login):")
        try terminal.type("wrong-pass-1")
        try terminal.press("Enter")
        try terminal.waitFor("Wrong password; try again.")
        try terminal.type(ChatUser.password)
        try terminal.press("Enter")
        let screen = try terminal.waitFor("Logged in as \(alice.login) (id \(alice.id)); chat connected.")
        #expect(!screen.contains("Signed up"), "an existing account is never signed up")
        #expect(!screen.contains("Create it?"))

        try terminal.waitFor("Open your dialogs now? [Y/n]")
        try terminal.press("Enter")
        // The chat view's list of dialogs, in process: bob's dialog is in it.
        try terminal.waitFor(bob.login)
        try terminal.press("Escape")
        #expect(try Self.lastStatus(terminal) == 0)
    }

    @Test func threeWrongPasswordsExitFour() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        try terminal.runAtPrompt("chatctl login --login \(alice.login) --no-chat-view", expecting: "Password for \(alice.login):")
        for attempt in 1...3 {
            try terminal.waitForScreen("password prompt \(attempt)") { screen in
                screen.components(separatedBy: "\n").filter { $0.hasPrefix("Password for") }.count == attempt
            }
            try terminal.type("wrong-pass-\(attempt)")
            try terminal.press("Enter")
        }
        try terminal.waitFor("failed:")
        #expect(try Self.lastStatus(terminal) == 4)
    }

    @Test func endOfInputAtTheLoginSaysNoLoginGiven() throws {
        let sandbox = try SandboxProcess()
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        try terminal.runAtPrompt("chatctl login", expecting: "Login:")
        try terminal.press("C-d")
        let screen = try terminal.waitFor("chatctl: no login given")
        #expect(!screen.contains("no terminal to ask on"))
        #expect(try Self.lastStatus(terminal) == 2)
    }

    @Test func noConfigIsSaidBeforeAnyQuestion() throws {
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: state.file("missing.json"), state: state)
        try terminal.tmux(["send-keys", "-t", "0", "-l", "chatctl login"])
        try terminal.press("Enter")
        let screen = try terminal.waitFor("missing.json")
        #expect(!screen.contains("Login: "), "asked nothing")
        #expect(try Self.lastStatus(terminal) == 2)
    }

    @Test func aServerOutOfReachReadsNoInternetConnection() throws {
        let sandbox = try SandboxProcess()
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let config = state.file("unreachable.json")
        try ProxiedSandbox.writeConfig(sandbox.config, api: "http://127.0.0.1:1", chat: sandbox.chatEndpoint, to: config)
        let terminal = try Self.terminal(configPath: config, state: state)
        try terminal.runAtPrompt("chatctl login --login alice", expecting: "No Internet connection: cannot reach 127.0.0.1:1 (")
        #expect(try Self.lastStatus(terminal) == 75)
    }

    /// Login and password both given (CHATCTL_PASSWORD), on a terminal: a new account still needs a yes;
    /// an existing one logs in as a script's would, with nothing asked and no dialogs offered.
    @Test func aTerminalNeverCreatesAnAccountSilentlyEvenWithThePasswordGiven() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        let typo = uniqueLogin("alcie")
        try terminal.runAtPrompt("CHATCTL_PASSWORD=\(Self.password) chatctl login --login \(typo) --full-name Typo",
                                 expecting: "No account '\(typo)' yet. Create it? [y/N]")
        try terminal.press("Enter")
        // As a form keeps you on it: the login is asked again; ^D there ends it.
        try terminal.waitFor("No account created for '\(typo)'; type the login again (Ctrl-D stops).")
        try terminal.waitFor("Login:")
        try terminal.press("C-d")
        try terminal.waitFor("chatctl: no login given")
        #expect(try Self.lastStatus(terminal) == 2)
        #expect(throws: (any Error).self, "nothing was signed up") {
            try sandbox.createSession(login: typo, password: Self.password)
        }

        try terminal.runAtPrompt("clear; CHATCTL_PASSWORD=\(ChatUser.password) chatctl login --login \(alice.login)",
                                 expecting: "Logged in as \(alice.login) (id ")
        #expect(try Self.lastStatus(terminal) == 0)
        #expect(!(try terminal.screen()).contains("Open your dialogs"))
    }

    /// A typo, "n" at the question, then the right login: the same run logs in.
    @Test func noToANewAccountAsksTheLoginAgainAndTheRightOneLogsIn() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        let typo = uniqueLogin("alcie")
        try terminal.runAtPrompt("chatctl login --no-chat-view", expecting: "Login:")
        try terminal.type(typo)
        try terminal.press("Enter")
        try terminal.waitFor("No account '\(typo)' yet. Create it? [y/N]")
        try terminal.type("n")
        try terminal.press("Enter")
        try terminal.waitForScreen("the login asked again") { screen in
            screen.components(separatedBy: "\n").filter { $0.hasPrefix("Login:") }.count == 2
        }
        try terminal.type(alice.login)
        try terminal.press("Enter")
        try terminal.waitFor("Password for \(alice.login):")
        try terminal.type(ChatUser.password)
        try terminal.press("Enter")
        let screen = try terminal.waitFor("Logged in as \(alice.login) (id \(alice.id))")
        #expect(!screen.contains("no account created"))
        #expect(try Self.lastStatus(terminal) == 0)
        #expect(throws: (any Error).self, "nothing was signed up for the typo") {
            try sandbox.createSession(login: typo, password: ChatUser.password)
        }
    }

    @Test func thePipedFlagsSignUpWithoutAQuestionAsBefore() throws {
        let sandbox = try SandboxProcess()
        let state = try TemporaryDirectory(prefix: "chatctl-interactive")
        let terminal = try Self.terminal(configPath: sandbox.configPath, state: state)
        let login = uniqueLogin("piped")
        // stdin a pipe, stderr the terminal: a script, so today's behaviour.
        try terminal.runAtPrompt("printf '%s\\n' \(Self.password) | chatctl login --login \(login) --password-stdin",
                                 expecting: "Signed up and logged in as \(login) (id ")
        #expect(try Self.lastStatus(terminal) == 0)
        let screen = try terminal.screen()
        #expect(!screen.contains("Create it?"))
        #expect(!screen.contains("Open your dialogs"))
        #expect(!screen.contains("Signing up…"))
    }
}

extension TmuxSession {
    /// Runs `command` and returns the rest of the last row that starts with `prefix`.
    func runAtPromptReading(_ command: String, prefix: String) throws -> String {
        try type(command)
        try press("Enter")
        let screen = try waitForScreen("a row starting \(prefix)") { $0.components(separatedBy: "\n").contains { $0.hasPrefix(prefix) } }
        let row = screen.components(separatedBy: "\n").last { $0.hasPrefix(prefix) } ?? ""
        return String(row.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }
}
