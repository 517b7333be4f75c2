import Testing
import AuthFlow

/// The interactive login's questions, without a terminal: each path of the login screen.
@Suite struct LoginPromptTests {
    typealias Prompt = LoginPrompt

    @Test func anInvalidLoginIsAskedAgainWithTheHint() {
        var prompt = Prompt(given: .init())
        #expect(prompt.start() == .ask(.login, hint: nil))
        #expect(prompt.handle(.answered("1alice")) == .ask(.login, hint: CredentialRules.loginHint))
        #expect(prompt.handle(.answered("")) == .ask(.login, hint: CredentialRules.loginHint))
        #expect(prompt.handle(.answered("alice")) == .lookUp(login: "alice"))
    }

    @Test(arguments: [(Prompt.Event.endOfInput, false), (.interrupted, true)])
    func noAnswerToTheLoginSaysNoLoginGiven(event: Prompt.Event, interrupted: Bool) {
        var prompt = Prompt(given: .init())
        _ = prompt.start()
        #expect(prompt.handle(event) == .stop(.noLogin(interrupted: interrupted)))
    }

    @Test func anExistingAccountAsksThePasswordOnceAndLogsInWithoutSigningUp() {
        var prompt = Prompt(given: .init(login: "alice"))
        #expect(prompt.start() == .lookUp(login: "alice"))
        #expect(prompt.handle(.accountExists) == .ask(.password(login: "alice"), hint: nil))
        #expect(prompt.handle(.answered("short")) == .ask(.password(login: "alice"), hint: CredentialRules.passwordHint))
        #expect(prompt.handle(.answered("correct-horse")) ==
                .logIn(.init(login: "alice", fullName: nil, password: "correct-horse", allowSignUp: false)))
    }

    @Test func aNewAccountIsConfirmedThenNamedThenTakesThePasswordTwice() {
        var prompt = Prompt(given: .init(login: "alcie"))
        _ = prompt.start()
        #expect(prompt.handle(.accountMissing) == .ask(.createAccount(login: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("y")) == .ask(.displayName(default: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("a  b")) == .ask(.displayName(default: "alcie"), hint: CredentialRules.displayNameHint))
        #expect(prompt.handle(.answered("Alice Cie")) == .ask(.password(login: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("first-pass-1")) == .ask(.passwordAgain, hint: nil))
        #expect(prompt.handle(.answered("other-pass-1")) == .ask(.password(login: "alcie"), hint: Prompt.passwordsDiffer))
        #expect(prompt.handle(.answered("first-pass-1")) == .ask(.passwordAgain, hint: nil))
        #expect(prompt.handle(.answered("first-pass-1")) ==
                .logIn(.init(login: "alcie", fullName: "Alice Cie", password: "first-pass-1", allowSignUp: true)))
    }

    @Test func enterKeepsTheDefaultDisplayName() {
        var prompt = Prompt(given: .init(login: "alcie"))
        _ = prompt.start()
        _ = prompt.handle(.accountMissing)
        _ = prompt.handle(.answered("yes"))
        #expect(prompt.handle(.answered("")) == .ask(.password(login: "alcie"), hint: nil))
        _ = prompt.handle(.answered("first-pass-1"))
        #expect(prompt.handle(.answered("first-pass-1")) ==
                .logIn(.init(login: "alcie", fullName: "alcie", password: "first-pass-1", allowSignUp: true)))
    }

    /// A "no" is a mistyped login: the form asks for the login again, and what follows is the new login's.
    @Test(arguments: ["", "n", "no", "whatever"])
    func anythingButYesCreatesNothingAndAsksTheLoginAgain(answer: String) {
        var prompt = Prompt(given: .init(login: "alcie", fullName: "Alice"))
        _ = prompt.start()
        #expect(prompt.handle(.accountMissing) == .ask(.createAccount(login: "alcie"), hint: nil))
        #expect(prompt.handle(.answered(answer)) == .ask(.login, hint: Prompt.notCreated("alcie")))
        #expect(prompt.handle(.answered("alice")) == .lookUp(login: "alice"))
        #expect(prompt.handle(.accountExists) == .ask(.password(login: "alice"), hint: nil))
        #expect(prompt.handle(.answered("correct-horse")) ==
                .logIn(.init(login: "alice", fullName: "Alice", password: "correct-horse", allowSignUp: false)))
    }

    @Test(arguments: [(Prompt.Event.endOfInput, false), (.interrupted, true)])
    func noAnswerToTheLoginAskedAgainStillEnds(event: Prompt.Event, interrupted: Bool) {
        var prompt = Prompt(given: .init(login: "alcie"))
        _ = prompt.start()
        _ = prompt.handle(.accountMissing)
        #expect(prompt.handle(.answered("n")) == .ask(.login, hint: Prompt.notCreated("alcie")))
        #expect(prompt.handle(event) == .stop(.noLogin(interrupted: interrupted)))
    }

    @Test func yesSkipsTheQuestionButNotTheNameNorTheSecondPassword() {
        var prompt = Prompt(given: .init(login: "alcie", assumeYes: true))
        _ = prompt.start()
        #expect(prompt.handle(.accountMissing) == .ask(.displayName(default: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("Alice")) == .ask(.password(login: "alcie"), hint: nil), "--full-name: not asked")
        #expect(prompt.handle(.answered("first-pass-1")) == .ask(.passwordAgain, hint: nil))
    }

    @Test func aWrongPasswordIsAskedAgainUpToThreeTimes() {
        var prompt = Prompt(given: .init(login: "alice"))
        _ = prompt.start()
        _ = prompt.handle(.accountExists)
        for _ in 1..<Prompt.attempts {
            #expect(prompt.handle(.answered("wrong-pass-1")) ==
                    .logIn(.init(login: "alice", fullName: nil, password: "wrong-pass-1", allowSignUp: false)))
            #expect(prompt.handle(.passwordRejected) == .ask(.password(login: "alice"), hint: Prompt.wrongPassword))
        }
        _ = prompt.handle(.answered("wrong-pass-1"))
        #expect(prompt.handle(.passwordRejected) == .stop(.tooManyAttempts))
    }

    @Test func aRetryAfterARaceNeverSignsUp() {
        // Looked up as missing, then taken by the time of the sign-up: the log-in's 401 asks again, as a log-in.
        var prompt = Prompt(given: .init(login: "alcie", fullName: "Alice", assumeYes: true))
        _ = prompt.start()
        _ = prompt.handle(.accountMissing)
        _ = prompt.handle(.answered("first-pass-1"))
        _ = prompt.handle(.answered("first-pass-1"))
        #expect(prompt.handle(.passwordRejected) == .ask(.password(login: "alcie"), hint: Prompt.wrongPassword))
        #expect(prompt.handle(.answered("second-pass-1")) ==
                .logIn(.init(login: "alcie", fullName: "Alice", password: "second-pass-1", allowSignUp: false)))
    }

    @Test func aPasswordFromTheEnvironmentIsNeverAskedNorRetried() {
        var prompt = Prompt(given: .init(password: "given-pass-1"))
        _ = prompt.start()
        #expect(prompt.handle(.answered("alice")) == .lookUp(login: "alice"))
        #expect(prompt.handle(.accountExists) ==
                .logIn(.init(login: "alice", fullName: nil, password: "given-pass-1", allowSignUp: false)))
        #expect(prompt.handle(.passwordRejected) == .stop(.tooManyAttempts))
    }

    @Test func noSignupSaysAtOnceThatThereIsNoSuchAccount() {
        var prompt = Prompt(given: .init(login: "alcie", allowSignUp: false))
        #expect(prompt.start() == .lookUp(login: "alcie"))
        #expect(prompt.handle(.accountMissing) == .stop(.noAccount(login: "alcie")))
        var existing = Prompt(given: .init(login: "alice", allowSignUp: false))
        _ = existing.start()
        #expect(existing.handle(.accountExists) == .ask(.password(login: "alice"), hint: nil))
        var unknown = Prompt(given: .init(login: "alice", allowSignUp: false))
        _ = unknown.start()
        _ = unknown.handle(.accountUnknown)
        _ = unknown.handle(.answered("some-pass-1"))
        #expect(unknown.handle(.passwordRejected) == .ask(.password(login: "alice"), hint: Prompt.wrongPassword),
                "no sign-up allowed: nothing to offer")
    }

    @Test func endOfInputAfterTheLoginAbandons() {
        var prompt = Prompt(given: .init(login: "alice"))
        _ = prompt.start()
        _ = prompt.handle(.accountExists)
        #expect(prompt.handle(.interrupted) == .stop(.abandoned(interrupted: true)))
    }
}

/// A server that lists users to signed-in users only cannot say whether the account exists:
/// the log-in finds out, and a refused one asks, once, whether to create it.
extension LoginPromptTests {
    @Test func whenTheServerWillNotSayTheLogInFindsOutAndARefusalAsksToCreate() {
        var prompt = Prompt(given: .init(login: "alcie"))
        _ = prompt.start()
        #expect(prompt.handle(.accountUnknown) == .ask(.password(login: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("first-pass-1")) ==
                .logIn(.init(login: "alcie", fullName: nil, password: "first-pass-1", allowSignUp: false)), "no sign-up unasked")
        #expect(prompt.handle(.passwordRejected) == .ask(.createAccount(login: "alcie"), hint: Prompt.wrongPasswordOrNoAccount("alcie")))
        #expect(prompt.handle(.answered("y")) == .ask(.displayName(default: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("")) == .ask(.password(login: "alcie"), hint: nil))
        #expect(prompt.handle(.answered("first-pass-1")) == .ask(.passwordAgain, hint: nil))
        #expect(prompt.handle(.answered("first-pass-1")) ==
                .logIn(.init(login: "alcie", fullName: "alcie", password: "first-pass-1", allowSignUp: true)))
    }

    @Test func whenTheServerWillNotSayNoToCreatingMeansTheWrongPassword() {
        var prompt = Prompt(given: .init(login: "alice"))
        _ = prompt.start()
        _ = prompt.handle(.accountUnknown)
        _ = prompt.handle(.answered("wrong-pass-1"))
        _ = prompt.handle(.passwordRejected)
        #expect(prompt.handle(.answered("n")) == .ask(.password(login: "alice"), hint: Prompt.wrongPassword))
        #expect(prompt.handle(.answered("right-pass-1")) ==
                .logIn(.init(login: "alice", fullName: nil, password: "right-pass-1", allowSignUp: false)))
        #expect(prompt.handle(.passwordRejected) == .ask(.password(login: "alice"), hint: Prompt.wrongPassword), "asked once only")
        #expect(prompt.handle(.answered("again-pass-1")) != .stop(.tooManyAttempts))
        #expect(prompt.handle(.passwordRejected) == .stop(.tooManyAttempts), "three refusals in all")
    }
}
