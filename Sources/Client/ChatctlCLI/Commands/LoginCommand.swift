import AuthFlow
import ClientConfiguration
import CommandLineKit
import Diagnostics
import Presentation
import QuickBloxAPI

/// `chatctl login`: sign up, or log in when the login is taken, then connect to chat.
struct LoginCommand: Command {
    static let configuration = CommandConfiguration(
        name: "login",
        abstract: "Sign up or log in, then connect to chat.",
        discussion: """
            Signs up a new login, or logs in when the login is taken (the \
            server answers 422), then connects to chat. The password comes from \
            --password-stdin, --password-file, $CHATCTL_PASSWORD, or a prompt \
            on the terminal; never from the command line. On a terminal, what the \
            command line leaves out is asked for as a login screen does: a new \
            account only after a yes (or --yes; a no asks for the login again) and \
            its password twice, a wrong password up to three times; then your \
            dialogs are offered. \
            --token-stdin, --token-file or $CHATCTL_TOKEN start from an existing \
            session token instead (a CI job's, another app's): the server says \
            whose session it is, and it is saved as a login's. No password comes \
            with it: once it expires, log in again.
            """,
        examples: [
            Example("Log in, or sign up when alice has no account yet (asks on a terminal)", "chatctl login --login alice"),
            Example("From a script: the password on standard input", "printf '%s\\n' \"$PASS\" | chatctl login -l alice --password-stdin"),
            Example("Log in only, never create an account; the password from CHATCTL_PASSWORD", "CHATCTL_PASSWORD=$(pass show qb) chatctl login -l alice --no-signup"),
            Example("Log in without connecting to chat, and print the user as JSON", "chatctl login -l alice --no-chat --json --password-file ~/.alice-pw"),
            Example("From a CI job holding a QuickBlox session token", "printf '%s\\n' \"$QB_TOKEN\" | chatctl login --token-stdin"),
        ],
        // The value after --password or --token is never read: it is not to be quoted back either.
        refusedOptions: [RefusedOption("password", message: """
            login takes no password on the command line, where other users see it (ps, /proc): \
            use --password-stdin, --password-file PATH or CHATCTL_PASSWORD, or a terminal's prompt
            """), RefusedOption("token", message: """
            login takes no session token on the command line, where other users see it (ps, /proc): \
            use --token-stdin, --token-file PATH or CHATCTL_TOKEN
            """)])

    @Option("login", short: "l", metavar: "NAME", help: "QuickBlox login or email (prompted for on a terminal).")
    var login: String?
    @Option("full-name", metavar: "NAME", help: "Display name: a sign-up's (default: the login), or the new name of an existing account.")
    var fullName: String?
    @Flag("password-stdin", help: "Read the password from standard input.")
    var passwordStdin: Bool
    @Flag("no-signup", help: "Log in only; never create an account.")
    var noSignup: Bool
    @Flag("no-chat", help: "Skip the chat connection.")
    var noChat: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool
    @Flag("yes", short: "y", help: "On a terminal, create a new account without asking first.")
    var yes: Bool
    @Flag("no-chat-view", help: "On a terminal, do not offer to open your dialogs afterwards.")
    var noChatView: Bool
    @Flag("token-stdin", help: "Start from an existing session token, read from standard input (no password).")
    var tokenStdin: Bool
    @Option("token-file", metavar: "PATH", help: "Start from the session token in the first line of a file.", completion: .file)
    var tokenFile: String?

    func run(_ context: CommandContext) throws -> ExitCode {
        if let source = try tokenSource(context) { return try runWithToken(source, context) }
        if try asksOnTerminal(context) { return try runInteractively(context) }
        // Everything the user typed is checked before any network call.
        guard let login = login ?? promptForLogin(context) else {
            throw context.usage("missing --login NAME (no terminal to ask on)")
        }
        guard CredentialRules.isValidLoginOrEmail(login) else {
            throw Failure(.invalidInput, "invalid login '\(TerminalText.sanitize(login, newlines: .asSpaces))'",
                                                  hint: CredentialRules.loginHint)
        }
        let displayName: String
        if let given = fullName {
            guard CredentialRules.isValidDisplayName(given) else {
                throw Failure(.invalidInput, "invalid display name '\(TerminalText.sanitize(given, newlines: .asSpaces))'",
                                                      hint: CredentialRules.displayNameHint)
            }
            displayName = given
        } else {
            displayName = CredentialRules.defaultDisplayName(for: login)
        }
        let password = try readPassword(login: login, context: context)
        guard CredentialRules.isValidPassword(password) else {
            throw Failure(.invalidInput, "the password does not meet the service's rules",
                                                  hint: CredentialRules.passwordHint)
        }

        let config = try context.loadConfig()
        let transport = try context.makeTransport(for: config)
        let store = try context.sessionStore(for: config)
        let keeper = SessionKeeper(config: config, store: store, transport: transport)
        let options = LoginFlow.Options(allowSignUp: !noSignup, connectChat: !noChat)
        let chat = options.connectChat ? ChatHeadStart(config: config, verboseLog: context.verboseLog) : nil
        let runner = LoginRunner(api: keeper.makeClient(), chat: chat, chatAuth: config.chatAuth)
        let identity: UserCredentials.Identity = login.contains("@") ? .email(login) : .login(login)
        let result = try runner.run(LoginRequest(identity: identity, password: password, fullName: displayName, options: options,
                                                fullNameGiven: fullName != nil))
        // The REST login stands even if chat failed: keep the session.
        try keeper.save(result, login: login)

        try announce(result, login: login, context: context)
        return .ok
    }

    /// The last line of a login (or the failure of its chat half), as every login ends.
    func announce(_ result: LoginResult, login: String, method: LoginMethod = .password, context: CommandContext) throws {
        let chatWord: String
        switch result.chat {
        case .connected: chatWord = "connected"
        case .skipped: chatWord = "skipped"
        case .failed(let error):
            throw Failure(error.kind, "\(error.message); logged in, session saved", hint: error.hint)
        }
        if result.fullNameChanged {
            let shown = TerminalText.sanitize(result.user.fullName ?? "", newlines: .asSpaces)
            context.io.writeErr("Display name changed to '\(shown)'.\n")
        } else if let failure = result.fullNameFailure {
            context.io.warn("warning: \(failure.message); logged in")
        }
        if json {
            context.io.writeOut(JSONOutput.line(.object([
                "user": .object(result.user.raw),
                "signed_up": .bool(result.signedUp),
                "chat": .string(chatWord),
                "login_method": .string(method.rawValue),
            ])))
        } else {
            let name = TerminalText.sanitize(result.user.login ?? result.user.email ?? login, newlines: .asSpaces)
            let what = result.signedUp ? "Signed up and logged in as" : "Logged in as"
            let how = method == .token ? " with a session token" : ""
            let chatText = chatWord == "connected" ? "chat connected" : "chat skipped"
            context.io.writeOut("\(what) \(name) (id \(result.user.id))\(how); \(chatText).\n")
        }
    }

    private func promptForLogin(_ context: CommandContext) -> String? {
        guard context.io.stdinIsTerminal else { return nil }
        return context.io.readLine(prompt: "Login: ").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--password-stdin`, `--password-file`, `CHATCTL_PASSWORD`, or a prompt on a terminal.
    private func readPassword(login: String, context: CommandContext) throws -> String {
        if passwordStdin && context.globals.passwordFile != nil {
            throw context.usage("--password-stdin and --password-file cannot be used together")
        }
        if passwordStdin {
            guard let bytes = context.io.readAllInput() else {
                throw Failure(.invalidInput, "cannot read the password from standard input")
            }
            let password = Self.firstLine(bytes)
            guard !password.isEmpty else {
                throw Failure(.invalidInput, "standard input held no password",
                                                      hint: "pipe it in, e.g. printf '%s\\n' \"$PASS\" | chatctl login --password-stdin …")
            }
            return password
        }
        if let password = try context.filePassword() { return password }
        if let password = context.environmentPassword { return password }
        if context.io.stdinIsTerminal, let password = context.io.readSecret(prompt: "Password for \(login): "), !password.isEmpty {
            return password
        }
        throw context.usage("no password given: use --password-stdin, --password-file PATH or CHATCTL_PASSWORD, or run on a terminal")
    }

    /// The text up to the first line break (a trailing newline is not part of a password).
    static func firstLine(_ bytes: [UInt8]) -> String {
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
