import AuthFlow
import ClientConfiguration
import Diagnostics
import QuickBloxAPI

/// `chatctl login --token-stdin`, `--token-file PATH` or `CHATCTL_TOKEN`: a session another
/// program made (a CI job's, an app's) saved as a login's, never from the command line.
extension LoginCommand {
    enum TokenSource: Equatable {
        case standardInput, file(String), environment
    }

    /// Where the token comes from, or nil for a password login. The flags come first; then
    /// `CHATCTL_TOKEN`, unless the command line asks for a password login (`--login`,
    /// `--password-stdin`, `--password-file`). Options only a password login reads are
    /// refused beside a token, before anything is read.
    func tokenSource(_ context: CommandContext) throws -> TokenSource? {
        if tokenStdin && tokenFile != nil {
            throw context.usage("--token-stdin and --token-file cannot be used together")
        }
        let asksForPassword: [(given: Bool, name: String)] = [
            (login != nil, "--login"), (passwordStdin, "--password-stdin"), (context.globals.passwordFile != nil, "--password-file"),
        ]
        let signUpOnly: [(given: Bool, name: String)] = [(fullName != nil, "--full-name"), (noSignup, "--no-signup"), (yes, "--yes")]
        let source: TokenSource
        let named: String
        if tokenStdin || tokenFile != nil {
            source = tokenFile.map(TokenSource.file) ?? .standardInput
            named = tokenStdin ? "--token-stdin" : "--token-file"
        } else if let variable = context.environment[Self.tokenVariable], !variable.isEmpty {
            if let asked = asksForPassword.first(where: \.given) {
                context.io.warn("warning: \(Self.tokenVariable) is not used: \(asked.name) asks for a password login")
                return nil
            }
            source = .environment
            named = Self.tokenVariable
        } else {
            return nil
        }
        if let clash = (asksForPassword + signUpOnly).first(where: \.given) {
            throw context.usage("\(named) cannot be used with \(clash.name): the token says whose session it is")
        }
        return source
    }

    static let tokenVariable = "CHATCTL_TOKEN"

    /// The token as the source holds it, checked for a token's shape (exit 2) before any request.
    func readToken(_ source: TokenSource, context: CommandContext) throws -> SessionToken {
        switch source {
        case .standardInput:
            guard let bytes = context.io.readAllInput() else {
                throw Failure(.invalidInput, "cannot read the session token from standard input")
            }
            return try SessionToken(reading: String(decoding: bytes, as: UTF8.self), from: "standard input")
        case .file(let path):
            guard let bytes = PrivateFiles.read(path) else {
                throw Failure(.invalidInput, "cannot read token file \(path)", hint: "check the path given to --token-file")
            }
            context.warnIfOthersCanRead(path, holding: "session token")
            return try SessionToken(reading: String(decoding: bytes, as: UTF8.self), from: "token file \(path)")
        case .environment:
            return try SessionToken(reading: context.environment[Self.tokenVariable] ?? "", from: Self.tokenVariable)
        }
    }

    /// Checks the token with the server, saves its session as any login's (nothing when it is
    /// refused), then connects to chat with it unless --no-chat.
    func runWithToken(_ source: TokenSource, _ context: CommandContext) throws -> ExitCode {
        let token = try readToken(source, context: context)
        let config = try context.loadConfig()
        let keeper = SessionKeeper(config: config, store: try context.sessionStore(for: config),
                                   transport: try context.makeTransport(for: config))
        let chat = noChat ? nil : ChatHeadStart(config: config, verboseLog: context.verboseLog)
        let runner = LoginRunner(api: keeper.makeClient(), chat: chat, chatAuth: config.chatAuth)
        let result = try runner.run(token: token, connectChat: !noChat)
        let login = result.user.login ?? result.user.email
        // The session stands even if chat failed: keep it.
        try keeper.save(result, login: login, method: .token)
        try announce(result, login: login ?? "user \(result.user.id)", method: .token, context: context)
        return .ok
    }
}
