import Diagnostics

/// The login flow of the QuickBlox samples' AuthModule as a pure state machine
/// (protocol logic as a value, I/O at the edges): application session → sign up → on 422 "login taken"
/// log in → chat connect. Or, from a session token another program made (the SDKs' "init with
/// token"): check the token (whose session is it?) → read its user → chat connect. Events in,
/// actions out; no I/O, so every path is unit-tested without sockets. `LoginRunner` performs
/// the actions.
package struct LoginFlow: Sendable, Equatable {
    package struct Options: Sendable, Equatable {
        /// What the login starts from: a login and password, or a session token.
        package enum Start: Sendable, Equatable { case password, sessionToken }
        package var start: Start
        /// false: `--no-signup`, log in only (a token signs nobody up).
        package var allowSignUp: Bool
        /// false: `--no-chat`, stop after the REST login.
        package var connectChat: Bool
        package init(start: Start = .password, allowSignUp: Bool = true, connectChat: Bool = true) {
            self.start = start; self.allowSignUp = allowSignUp && start == .password; self.connectChat = connectChat
        }
    }

    package enum State: Sendable, Equatable {
        case idle, creatingSession, signingUp, loggingIn, checkingToken, readingUser, connectingChat, succeeded, failed
    }

    package enum Event: Sendable, Equatable {
        case sessionCreated
        case signedUp
        /// Sign-up answered 422 naming the login (or email) as taken.
        case loginTaken
        /// Sign-up refused for another reason (invalid password, …).
        case signUpRejected
        case loggedIn
        /// Log-in answered 401: the password does not match.
        case credentialsRejected
        /// The token is a live session of a user of this application.
        case tokenAccepted
        /// The server does not know the token, or it is no user's session of this application.
        case tokenRejected
        /// The token's user was read.
        case userRead
        /// Chat is connected (also when it already was, or was connecting).
        case chatConnected
        /// The step could not be carried out (network, timeout, 5xx, bad answer).
        case stepFailed
    }

    package enum Failure: Sendable, Equatable {
        case badCredentials
        case signUpRejected
        case tokenRejected
        /// The step named by the state the flow was in when it failed.
        case stepFailed(State)
    }

    package enum Action: Sendable, Equatable {
        case createSession, signUp, logIn, checkToken, readUser, connectChat
        case succeed(signedUp: Bool, chatConnected: Bool)
        case fail(Failure)
    }

    package let options: Options
    package private(set) var state: State = .idle
    package private(set) var signedUp = false

    package init(options: Options) { self.options = options }

    package mutating func start() -> Action {
        precondition(state == .idle, "LoginFlow.start() called twice")
        switch options.start {
        case .password: state = .creatingSession; return .createSession
        case .sessionToken: state = .checkingToken; return .checkToken
        }
    }

    package mutating func handle(_ event: Event) -> Action {
        switch (state, event) {
        case (.creatingSession, .sessionCreated):
            if options.allowSignUp { state = .signingUp; return .signUp }
            state = .loggingIn; return .logIn
        case (.signingUp, .signedUp):
            // A new account still needs a log-in to turn the application
            // session into a user session.
            signedUp = true
            state = .loggingIn; return .logIn
        case (.signingUp, .loginTaken):
            state = .loggingIn; return .logIn
        case (.signingUp, .signUpRejected):
            return fail(.signUpRejected)
        case (.loggingIn, .loggedIn), (.readingUser, .userRead):
            if options.connectChat { state = .connectingChat; return .connectChat }
            state = .succeeded; return .succeed(signedUp: signedUp, chatConnected: false)
        case (.loggingIn, .credentialsRejected):
            return fail(.badCredentials)
        case (.checkingToken, .tokenAccepted):
            state = .readingUser; return .readUser
        case (.checkingToken, .tokenRejected):
            return fail(.tokenRejected)
        case (.connectingChat, .chatConnected):
            state = .succeeded; return .succeed(signedUp: signedUp, chatConnected: true)
        case (.creatingSession, .stepFailed), (.signingUp, .stepFailed), (.loggingIn, .stepFailed),
             (.checkingToken, .stepFailed), (.readingUser, .stepFailed), (.connectingChat, .stepFailed):
            return fail(.stepFailed(state))
        default:
            preconditionFailure("LoginFlow: event \(event) is impossible in state \(state)")
        }
    }

    private mutating func fail(_ failure: Failure) -> Action {
        state = .failed
        return .fail(failure)
    }
}
