/// The questions of an interactive `chatctl login`, as QuickBlox's login screen asks them,
/// as a pure state machine: answers in, the next question or step out. The
/// command's edge reads the terminal and calls the server; every path is unit-tested here.
package struct LoginPrompt: Sendable, Equatable {
    /// What the command line (or the environment) already said.
    package struct Given: Sendable, Equatable {
        /// A login already checked with `CredentialRules`, or nil to ask.
        package var login: String?
        package var fullName: String?
        /// From `--password-file` or `CHATCTL_PASSWORD`: never asked, never asked again.
        package var password: String?
        package var allowSignUp: Bool
        /// `--yes`: create a new account without the question.
        package var assumeYes: Bool
        package init(login: String? = nil, fullName: String? = nil, password: String? = nil,
                     allowSignUp: Bool = true, assumeYes: Bool = false) {
            self.login = login; self.fullName = fullName; self.password = password
            self.allowSignUp = allowSignUp; self.assumeYes = assumeYes
        }
    }

    package enum Question: Sendable, Equatable {
        case login
        case displayName(default: String)
        case createAccount(login: String)
        case password(login: String)
        case passwordAgain
    }

    /// Why the prompt ended without a login attempt (or after the last one).
    package enum Stop: Sendable, Equatable {
        /// ^D or ^C at the login question.
        case noLogin(interrupted: Bool)
        /// ^D or ^C at any later question.
        case abandoned(interrupted: Bool)
        /// The password was refused this many times.
        case tooManyAttempts
        /// `--no-signup`, and the server says there is no such account.
        case noAccount(login: String)
    }

    package struct Attempt: Sendable, Equatable {
        package var login: String
        /// The display name typed for a new account, or `--full-name`; nil: neither.
        package var fullName: String?
        package var password: String
        package var allowSignUp: Bool
        package init(login: String, fullName: String?, password: String, allowSignUp: Bool) {
            self.login = login; self.fullName = fullName; self.password = password; self.allowSignUp = allowSignUp
        }
    }

    package enum Action: Sendable, Equatable {
        /// Show `hint` (when not nil: why the last answer was not taken), then ask.
        case ask(Question, hint: String?)
        /// Find out whether the login exists yet (before any sign-up).
        case lookUp(login: String)
        case logIn(Attempt)
        case stop(Stop)
    }

    package enum Event: Sendable, Equatable {
        case answered(String)
        case endOfInput
        case interrupted
        case accountExists
        case accountMissing
        /// The server would not say (a look-up refused to an application session): the
        /// log-in finds out, and a refused one asks whether to create the account.
        case accountUnknown
        /// The log-in answered 401.
        case passwordRejected
    }

    /// As sudo and ssh: three tries at a password.
    package static let attempts = 3
    package static let passwordsDiffer = "The passwords do not match."
    package static let wrongPassword = "Wrong password; try again."
    package static func wrongPasswordOrNoAccount(_ login: String) -> String { "Wrong password, or no account '\(login)' yet." }
    package static func notCreated(_ login: String) -> String { "No account created for '\(login)'; type the login again (Ctrl-D stops)." }

    package let given: Given
    package private(set) var pending: Question?
    private var login: String?
    private var fullName: String?
    private var isNew = false
    private var password: String?
    private var tries = 0
    /// Whether the account exists is not known (`accountUnknown`), and whether a refused
    /// log-in has asked about creating it yet.
    private var existenceUnknown = false
    private var askedToCreate = false

    package init(given: Given) {
        self.given = given
        login = given.login; fullName = given.fullName
    }

    package mutating func start() -> Action {
        guard let login else { return ask(.login) }
        return afterLogin(login)
    }

    package mutating func handle(_ event: Event) -> Action {
        switch event {
        case .endOfInput, .interrupted:
            let interrupted = event == .interrupted
            pending = nil
            return .stop(login == nil ? .noLogin(interrupted: interrupted) : .abandoned(interrupted: interrupted))
        case .accountExists:
            return passwordStep()
        case .accountUnknown:
            existenceUnknown = true
            return passwordStep()
        case .accountMissing:
            guard let login else { preconditionFailure("LoginPrompt: no login to create") }
            // `--no-signup`: said at once, not as three wrong passwords.
            guard given.allowSignUp else { return .stop(.noAccount(login: login)) }
            // Asked first: a mistyped login shows here, before anything else is typed for it.
            isNew = true
            if given.assumeYes { return nameStep() }
            return ask(.createAccount(login: login))
        case .passwordRejected:
            tries += 1
            if existenceUnknown && !askedToCreate && given.allowSignUp, let login {
                // A wrong password, or no such account: asked once, never assumed.
                askedToCreate = true
                if given.assumeYes { isNew = true; return nameStep() }
                return ask(.createAccount(login: login), hint: Self.wrongPasswordOrNoAccount(login))
            }
            guard given.password == nil, tries < Self.attempts, let login else { return .stop(.tooManyAttempts) }
            // The account exists now (it just refused the password): never sign up on a retry.
            isNew = false
            return ask(.password(login: login), hint: Self.wrongPassword)
        case .answered(let text):
            return answered(text)
        }
    }

    private mutating func answered(_ text: String) -> Action {
        guard let question = pending else { preconditionFailure("LoginPrompt: an answer without a question") }
        switch question {
        case .login:
            guard CredentialRules.isValidLoginOrEmail(text) else { return ask(.login, hint: CredentialRules.loginHint) }
            login = text
            return afterLogin(text)
        case .displayName(let fallback):
            let name = text.isEmpty ? fallback : text
            guard CredentialRules.isValidDisplayName(name) else { return ask(question, hint: CredentialRules.displayNameHint) }
            fullName = name
            return passwordStep()
        case .createAccount(let login):
            let yes = ["y", "yes"].contains(text.lowercased())
            pending = nil
            if yes { isNew = true; return nameStep() }
            // "No" to a new account is a mistyped login, as a login form keeps you on it: asked again.
            guard existenceUnknown else { return startOver(declined: login) }
            // After a refused log-in "no" means the password was wrong: asked again, if it can be.
            guard given.password == nil, tries < Self.attempts else { return .stop(.tooManyAttempts) }
            return ask(.password(login: login), hint: Self.wrongPassword)
        case .password(let login):
            guard CredentialRules.isValidPassword(text) else { return ask(question, hint: CredentialRules.passwordHint) }
            password = text
            if isNew { return ask(.passwordAgain) }
            return attempt(login: login, password: text)
        case .passwordAgain:
            guard let login, let first = password else { preconditionFailure("LoginPrompt: a second password before the first") }
            guard text == first else {
                password = nil
                return ask(.password(login: login), hint: Self.passwordsDiffer)
            }
            return attempt(login: login, password: first)
        }
    }

    /// Back to the login question, with nothing of the declined login kept.
    private mutating func startOver(declined login: String) -> Action {
        self.login = nil
        fullName = given.fullName
        isNew = false
        password = nil
        return ask(.login, hint: Self.notCreated(login))
    }

    private mutating func afterLogin(_ login: String) -> Action {
        pending = nil
        return .lookUp(login: login)
    }

    /// The display name of a new account, unless `--full-name` gave it.
    private mutating func nameStep() -> Action {
        guard fullName == nil, let login else { return passwordStep() }
        return ask(.displayName(default: CredentialRules.defaultDisplayName(for: login)))
    }

    private mutating func passwordStep() -> Action {
        guard let login else { preconditionFailure("LoginPrompt: a password before the login") }
        if let known = given.password { return attempt(login: login, password: known) }
        return ask(.password(login: login))
    }

    private mutating func attempt(login: String, password: String) -> Action {
        pending = nil
        return .logIn(Attempt(login: login, fullName: fullName, password: password, allowSignUp: isNew))
    }

    private mutating func ask(_ question: Question, hint: String? = nil) -> Action {
        pending = question
        return .ask(question, hint: hint)
    }
}
