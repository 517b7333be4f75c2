import Diagnostics

/// The login flow of the QuickBlox samples' AuthModule as a pure state machine
/// (protocol logic as a value, I/O at the edges): application session → sign up → on 422 "login taken"
/// log in → chat connect. Events in, actions out; no I/O, so every path is
/// unit-tested without sockets. `LoginRunner` performs the actions.
package struct LoginFlow: Sendable, Equatable {
    package struct Options: Sendable, Equatable {
        /// false: `--no-signup`, log in only.
        package var allowSignUp: Bool
        /// false: `--no-chat`, stop after the REST login.
        package var connectChat: Bool
        package init(allowSignUp: Bool = true, connectChat: Bool = true) {
            self.allowSignUp = allowSignUp; self.connectChat = connectChat
        }
    }

    package enum State: Sendable, Equatable {
        case idle, creatingSession, signingUp, loggingIn, connectingChat, succeeded, failed
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
        /// Chat is connected (also when it already was, or was connecting).
        case chatConnected
        /// The step could not be carried out (network, timeout, 5xx, bad answer).
        case stepFailed
    }

    package enum Failure: Sendable, Equatable {
        case badCredentials
        case signUpRejected
        /// The step named by the state the flow was in when it failed.
        case stepFailed(State)
    }

    package enum Action: Sendable, Equatable {
        case createSession, signUp, logIn, connectChat
        case succeed(signedUp: Bool, chatConnected: Bool)
        case fail(Failure)
    }

    package let options: Options
    package private(set) var state: State = .idle
    package private(set) var signedUp = false

    package init(options: Options) { self.options = options }

    package mutating func start() -> Action {
        precondition(state == .idle, "LoginFlow.start() called twice")
        state = .creatingSession
        return .createSession
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
        case (.loggingIn, .loggedIn):
            if options.connectChat { state = .connectingChat; return .connectChat }
            state = .succeeded; return .succeed(signedUp: signedUp, chatConnected: false)
        case (.loggingIn, .credentialsRejected):
            return fail(.badCredentials)
        case (.connectingChat, .chatConnected):
            state = .succeeded; return .succeed(signedUp: signedUp, chatConnected: true)
        case (.creatingSession, .stepFailed), (.signingUp, .stepFailed),
             (.loggingIn, .stepFailed), (.connectingChat, .stepFailed):
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
