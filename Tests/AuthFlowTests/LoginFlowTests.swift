import Testing
@testable import AuthFlow

/// The login state machine, without sockets: every path of the samples' AuthModule.
@Suite struct LoginFlowTests {
    /// Feeds events to a fresh flow and returns every action it asked for.
    func actions(_ events: [LoginFlow.Event], options: LoginFlow.Options = .init()) -> [LoginFlow.Action] {
        var flow = LoginFlow(options: options)
        var result = [flow.start()]
        for event in events { result.append(flow.handle(event)) }
        return result
    }

    @Test func newLoginSignsUpThenLogsInThenConnects() {
        #expect(actions([.sessionCreated, .signedUp, .loggedIn, .chatConnected]) ==
                [.createSession, .signUp, .logIn, .connectChat, .succeed(signedUp: true, chatConnected: true)])
    }

    @Test func takenLoginFallsBackToLogIn() {
        #expect(actions([.sessionCreated, .loginTaken, .loggedIn, .chatConnected]) ==
                [.createSession, .signUp, .logIn, .connectChat, .succeed(signedUp: false, chatConnected: true)])
    }

    @Test func wrongPasswordAfter422IsBadCredentials() {
        #expect(actions([.sessionCreated, .loginTaken, .credentialsRejected]) ==
                [.createSession, .signUp, .logIn, .fail(.badCredentials)])
    }

    @Test func signUpRejectedForAnotherReasonStops() {
        #expect(actions([.sessionCreated, .signUpRejected]) == [.createSession, .signUp, .fail(.signUpRejected)])
    }

    @Test(arguments: [
        ([LoginFlow.Event.stepFailed], LoginFlow.State.creatingSession),
        ([.sessionCreated, .stepFailed], .signingUp),
        ([.sessionCreated, .loginTaken, .stepFailed], .loggingIn),
        ([.sessionCreated, .signedUp, .loggedIn, .stepFailed], .connectingChat),
    ])
    func networkErrorAtEachStepFailsNamingTheStep(events: [LoginFlow.Event], step: LoginFlow.State) {
        #expect(actions(events).last == .fail(.stepFailed(step)))
    }

    static let fromToken = LoginFlow.Options(start: .sessionToken)

    @Test func aTokenIsCheckedThenItsUserReadThenChatConnects() {
        #expect(actions([.tokenAccepted, .userRead, .chatConnected], options: Self.fromToken) ==
                [.checkToken, .readUser, .connectChat, .succeed(signedUp: false, chatConnected: true)])
        #expect(actions([.tokenAccepted, .userRead], options: .init(start: .sessionToken, connectChat: false)) ==
                [.checkToken, .readUser, .succeed(signedUp: false, chatConnected: false)])
    }

    @Test func aRejectedTokenStopsBeforeAnythingElse() {
        #expect(actions([.tokenRejected], options: Self.fromToken) == [.checkToken, .fail(.tokenRejected)])
    }

    @Test(arguments: [
        ([LoginFlow.Event.stepFailed], LoginFlow.State.checkingToken),
        ([.tokenAccepted, .stepFailed], .readingUser),
        ([.tokenAccepted, .userRead, .stepFailed], .connectingChat),
    ])
    func aTokensStepsFailNamingTheStep(events: [LoginFlow.Event], step: LoginFlow.State) {
        #expect(actions(events, options: Self.fromToken).last == .fail(.stepFailed(step)))
    }

    @Test func aTokenNeverSignsUp() {
        #expect(!LoginFlow.Options(start: .sessionToken, allowSignUp: true).allowSignUp)
    }

    @Test func noSignupGoesStraightToLogIn() {
        #expect(actions([.sessionCreated, .loggedIn, .chatConnected], options: .init(allowSignUp: false)) ==
                [.createSession, .logIn, .connectChat, .succeed(signedUp: false, chatConnected: true)])
    }

    @Test func noChatStopsAfterLogIn() {
        #expect(actions([.sessionCreated, .loginTaken, .loggedIn], options: .init(connectChat: false)) ==
                [.createSession, .signUp, .logIn, .succeed(signedUp: false, chatConnected: false)])
    }

    @Test func finalStatesAreRecorded() {
        var flow = LoginFlow(options: .init())
        _ = flow.start()
        _ = flow.handle(.sessionCreated)
        _ = flow.handle(.signedUp)
        #expect(flow.signedUp)
        _ = flow.handle(.credentialsRejected)
        #expect(flow.state == .failed)
    }
}
