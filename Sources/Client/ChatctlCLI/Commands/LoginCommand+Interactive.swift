#if canImport(Glibc)
import Glibc
#endif
import AuthFlow
import ClientConfiguration
import Diagnostics
import Presentation
import QuickBloxAPI

/// `chatctl login` typed by a person: the questions of QuickBlox's login screen
/// (`LoginPrompt` decides them), asked on the terminal, the steps on a status line.
extension LoginCommand {
    /// A person at a terminal, and something the command line left to ask: the login, the password,
    /// or the yes a new account needs (an account is never created silently on a terminal; --yes gives it).
    func asksOnTerminal(_ context: CommandContext) throws -> Bool {
        guard context.io.stdinIsTerminal, context.io.stderrIsTerminal, !passwordStdin else { return false }
        guard login != nil else { return true }
        if try context.filePassword() == nil && context.environmentPassword == nil { return true }
        return !yes && !noSignup
    }

    func runInteractively(_ context: CommandContext) throws -> ExitCode {
        // The config first: no question is worth answering for a login that cannot happen.
        let config = try context.loadConfig()
        if let login, !CredentialRules.isValidLoginOrEmail(login) {
            throw Failure(.invalidInput, "invalid login '\(TerminalText.sanitize(login, newlines: .asSpaces))'",
                          hint: CredentialRules.loginHint)
        }
        if let fullName, !CredentialRules.isValidDisplayName(fullName) {
            throw Failure(.invalidInput, "invalid display name '\(TerminalText.sanitize(fullName, newlines: .asSpaces))'",
                          hint: CredentialRules.displayNameHint)
        }
        let io = context.io
        let status = StatusLine(io: io)
        let keeper = SessionKeeper(config: config, store: try context.sessionStore(for: config),
                                   transport: try context.makeTransport(for: config))
        let givenPassword = try context.filePassword() ?? context.environmentPassword
        // A password given by file or environment is checked before any request, as on the script path.
        if let givenPassword, !CredentialRules.isValidPassword(givenPassword) {
            throw Failure(.invalidInput, "the password does not meet the service's rules", hint: CredentialRules.passwordHint)
        }
        var prompt = LoginPrompt(given: .init(login: login, fullName: fullName,
                                              password: givenPassword,
                                              allowSignUp: !noSignup, assumeYes: yes))
        var action = prompt.start()
        var refused: Failure?
        var loggedIn = false
        // Only a login that asked something offers the dialogs: one that only looked first stays a plain login.
        var asked = false
        do {
            while true {
                switch action {
                case .ask(let question, let hint):
                    asked = true
                    if let hint { io.writeErr("\(hint)\n") }
                    switch io.ask(Self.text(of: question), echo: !Self.isSecret(question)) {
                    case .line(let answer): action = prompt.handle(.answered(answer))
                    case .endOfInput: action = prompt.handle(.endOfInput)
                    case .interrupted: action = prompt.handle(.interrupted)
                    }
                case .lookUp(let login):
                    status.show("Looking up \(login)…")
                    let exists = try Self.accountExists(login, client: keeper.makeClient(), config: config)
                    status.clear()
                    action = prompt.handle(exists.map { $0 ? .accountExists : .accountMissing } ?? .accountUnknown)
                case .logIn(let attempt):
                    switch try logIn(attempt, keeper: keeper, config: config, status: status, context: context) {
                    case .success(let result):
                        status.clear()
                        // Logged in: a chat failure now is the chat's, not the network's (see the catch).
                        loggedIn = true
                        try announce(result, login: attempt.login, context: context)
                        return asked ? try offerDialogs(context) : .ok
                    case .failure(let failure):
                        status.clear()
                        refused = failure
                        action = prompt.handle(.passwordRejected)
                    }
                case .stop(let stop):
                    switch stop {
                    case .noLogin(let interrupted):
                        io.warn("no login given")
                        return Self.ending(interrupted: interrupted)
                    case .abandoned(let interrupted):
                        io.warn("login abandoned")
                        return Self.ending(interrupted: interrupted)
                    case .tooManyAttempts:
                        throw refused ?? Failure(.authentication, "log in failed")
                    case .noAccount(let login):
                        throw Failure(.authentication, "no account '\(TerminalText.sanitize(login, newlines: .asSpaces))'",
                                      hint: "check the login, or leave out --no-signup to create it")
                    }
                }
            }
        } catch let failure as Failure {
            status.clear()
            throw loggedIn ? failure : Self.readingNetwork(failure, api: config.apiEndpoint)
        }
    }

    /// One login; a refused password comes back as a value (it is asked again), anything else is thrown.
    private func logIn(_ attempt: LoginPrompt.Attempt, keeper: SessionKeeper, config: ClientConfig,
                       status: StatusLine, context: CommandContext) throws -> Result<LoginResult, Failure> {
        let options = LoginFlow.Options(allowSignUp: attempt.allowSignUp, connectChat: !noChat)
        let chat = options.connectChat ? ChatHeadStart(config: config, verboseLog: context.verboseLog) : nil
        let runner = LoginRunner(api: keeper.makeClient(), chat: chat, chatAuth: config.chatAuth)
        var step = LoginFlow.Action.createSession
        // The step a failure came from: the last one started (the flow's end is no step).
        runner.onStep = { action in
            switch action {
            case .signUp: status.show("Signing up…")
            case .logIn: status.show("Logging in…")
            case .connectChat: status.show("Connecting to chat…")
            case .createSession, .checkToken, .readUser: break
            case .succeed, .fail: return
            }
            step = action
        }
        let identity: UserCredentials.Identity = attempt.login.contains("@") ? .email(attempt.login) : .login(attempt.login)
        let fullName = attempt.fullName ?? CredentialRules.defaultDisplayName(for: attempt.login)
        let result: LoginResult
        do {
            // A name the person gave (asked, or --full-name) replaces an existing account's.
            result = try runner.run(LoginRequest(identity: identity, password: attempt.password,
                                                 fullName: fullName, options: options, fullNameGiven: attempt.fullName != nil))
        } catch {
            guard error.kind == .authentication, step == .logIn else { throw error }
            return .failure(error)
        }
        try keeper.save(result, login: attempt.login)
        return .success(result)
    }

    /// After an interactive login, the dialogs, as the samples open them (`--no-chat-view` or no terminal: not offered).
    private func offerDialogs(_ context: CommandContext) throws -> ExitCode {
        guard !noChatView, !json, context.io.stdoutIsTerminal else { return .ok }
        let answer: String
        switch context.io.ask("Open your dialogs now? [Y/n] ", echo: true) {
        case .line(let line): answer = line
        case .endOfInput: return .ok
        // ^C at the question ends as ^C does everywhere (logged in all the same).
        case .interrupted: return Self.ending(interrupted: true)
        }
        guard ["", "y", "yes"].contains(answer.lowercased()) else { return .ok }
        let chat = CommandContext(globals: context.globals, path: ["chatctl", "chat"],
                                  environment: context.environment, io: context.io)
        return try ChatCommand().run(chat)
    }

    /// Whether `login` has an account yet (`GET /users/by_login.json` or `by_email.json`, 404: none),
    /// asked with an application session so that nothing is signed up before the person says so.
    /// nil: the server would not say (it lists users to signed-in users only: 401, 403, 422);
    /// the prompt then finds out by logging in. The application session ends after the look-up.
    private static func accountExists(_ login: String, client: QuickBloxClient, config: ClientConfig) throws(Failure) -> Bool? {
        do {
            _ = try client.createSession()
        } catch {
            throw Failure(describing: error, doing: "create session")
        }
        defer { try? client.deleteSession() }
        do {
            if login.contains("@") { _ = try client.user(email: login) } else { _ = try client.user(login: login) }
            return true
        } catch where error.kind == .http(status: 404) {
            return false
        } catch where [401, 403, 422].contains(error.status ?? 0) {
            return nil
        } catch {
            throw Failure(describing: error, doing: "look up '\(login)'")
        }
    }

    /// ^C ends as it always ends a program (by SIGINT, as the password prompt did before); ^D as a missing argument.
    private static func ending(interrupted: Bool) -> ExitCode {
        guard interrupted else { return .usage }
        raise(SIGINT)
        return .interrupted
    }

    /// A server out of reach, in the samples' words ("No Internet Connection"); other failures as they are.
    static func readingNetwork(_ failure: Failure, api: String) -> Failure {
        guard failure.kind == .temporary,
              failure.message.contains(": cannot connect to ") || failure.message.contains(" did not answer in time") else { return failure }
        let afterScheme = api.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? api
        return Failure(.temporary, "No Internet connection: cannot reach \(afterScheme) (\(failure.message))", hint: failure.hint)
    }

    static func text(of question: LoginPrompt.Question) -> String {
        switch question {
        case .login: return "Login: "
        case .displayName(let fallback): return "Display name [\(fallback)]: "
        case .createAccount(let login): return "No account '\(login)' yet. Create it? [y/N] "
        case .password(let login): return "Password for \(login): "
        case .passwordAgain: return "Password again: "
        }
    }

    static func isSecret(_ question: LoginPrompt.Question) -> Bool {
        switch question {
        case .password, .passwordAgain: return true
        case .login, .displayName, .createAccount: return false
        }
    }
}
