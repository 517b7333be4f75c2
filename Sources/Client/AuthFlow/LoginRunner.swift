#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import Diagnostics
import QuickBloxAPI
import XMPPTransport

package struct LoginRequest: Sendable {
    package var identity: UserCredentials.Identity
    package var password: String
    /// Display name for a sign-up.
    package var fullName: String
    package var options: LoginFlow.Options
    /// The person gave `fullName` (not a default): an existing account whose name differs
    /// takes it (the seed's "Full Name Did Change").
    package var fullNameGiven: Bool
    package init(identity: UserCredentials.Identity, password: String, fullName: String, options: LoginFlow.Options,
                 fullNameGiven: Bool = false) {
        self.identity = identity; self.password = password; self.fullName = fullName; self.options = options
        self.fullNameGiven = fullNameGiven
    }
}

package struct LoginResult: Sendable {
    package enum Chat: Sendable, Equatable {
        case connected, skipped
        /// The REST login worked (the session is valid) but chat did not connect.
        case failed(Failure)
    }
    package var user: QBUser
    package var token: String
    package var expiresAt: Date
    package var signedUp: Bool
    package var chat: Chat
    /// The existing account's display name was changed to the one given.
    package var fullNameChanged = false
    /// Why changing it failed (the login itself stands).
    package var fullNameFailure: Failure?
}

/// Carries out what `LoginFlow` asks for, against the REST API and chat.
package final class LoginRunner {
    let api: QuickBloxClient
    let chat: (any ChatConnecting)?
    let chatAuth: ClientConfig.ChatAuth
    /// Told each step as it starts: an interactive login shows it on its status line.
    package var onStep: ((LoginFlow.Action) -> Void)?

    package init(api: QuickBloxClient, chat: (any ChatConnecting)?, chatAuth: ClientConfig.ChatAuth = .token) {
        self.api = api; self.chat = chat; self.chatAuth = chatAuth
    }

    package func run(_ request: LoginRequest) throws(Failure) -> LoginResult {
        var options = request.options
        if chat == nil { options.connectChat = false }
        var flow = LoginFlow(options: options)
        var action = flow.start()
        // What chat can do before the log-in has the user's id and token (TCP, TLS), it does meanwhile.
        if options.connectChat { chat?.prepare() }
        var user: QBUser?
        var lastError: Failure?
        var renamed: (changed: Bool, failure: Failure?) = (false, nil)
        let credentials = UserCredentials(identity: request.identity, password: request.password)
        let who: String
        switch request.identity { case .login(let l): who = l; case .email(let e): who = e }

        while true {
            onStep?(action)
            let event: LoginFlow.Event
            switch action {
            case .createSession:
                do { _ = try api.createSession(); event = .sessionCreated } catch {
                    lastError = Failure(describing: error, doing: "create session"); event = .stepFailed
                }
            case .signUp:
                do {
                    switch request.identity {
                    case .login(let login):
                        user = try api.signUp(login: login, password: request.password, fullName: request.fullName, email: nil)
                    case .email(let email):
                        user = try api.signUp(login: nil, password: request.password, fullName: request.fullName, email: email)
                    }
                    event = .signedUp
                } catch where error.isLoginTaken {
                    event = .loginTaken
                } catch {
                    if case .http(422) = error.kind {
                        let reason = error.reasons.joined(separator: "; ")
                        lastError = Failure(.invalidInput, "sign-up of '\(who)' refused: \(reason)",
                                                  hint: error.fieldErrors["password"] != nil ? CredentialRules.passwordHint : nil)
                        event = .signUpRejected
                    } else {
                        lastError = Failure(describing: error, doing: "sign up"); event = .stepFailed
                    }
                }
            case .logIn:
                do {
                    user = try api.logIn(credentials)
                    if request.fullNameGiven, let current = user {
                        let outcome = rename(current, to: request.fullName)
                        if let updated = outcome.user { user = updated; renamed.changed = true }
                        renamed.failure = outcome.failure
                    }
                    event = .loggedIn
                } catch {
                    if case .http(401) = error.kind {
                        let reason = error.reasons.isEmpty ? "Unauthorized" : error.reasons.joined(separator: "; ")
                        lastError = Failure(.authentication, "log in as '\(who)' failed: \(reason) (401 from \(error.request))",
                                                  hint: options.allowSignUp ? "check the password" : "check the login and password")
                        event = .credentialsRejected
                    } else {
                        lastError = Failure(describing: error, doing: "log in"); event = .stepFailed
                    }
                }
            case .connectChat:
                guard let chat, let userId = user?.id, let token = api.token else { preconditionFailure("chat connect before log-in") }
                do {
                    try chat.connect(userId: userId, secret: chatAuth == .token ? token : request.password)
                    event = .chatConnected
                } catch {
                    lastError = Failure(describing: error); event = .stepFailed
                }
            case .checkToken, .readUser:
                preconditionFailure("a password login has no token to check")
            case .succeed(let signedUp, let chatConnected):
                var done = try result(user: user, signedUp: signedUp, chat: chatConnected ? .connected : .skipped)
                (done.fullNameChanged, done.fullNameFailure) = renamed
                return done
            case .fail(let failure):
                let error = lastError ?? Failure(.failure, "login failed")
                if case .stepFailed(.connectingChat) = failure {
                    var done = try result(user: user, signedUp: flow.signedUp, chat: .failed(error))
                    (done.fullNameChanged, done.fullNameFailure) = renamed
                    return done
                }
                throw error
            }
            action = flow.handle(event)
        }
    }

    /// `PUT /users/{id}.json` with the given name when it is not the account's already:
    /// the user as changed, or nil when nothing needed changing or the change failed.
    private func rename(_ current: QBUser, to fullName: String) -> (user: QBUser?, failure: Failure?) {
        guard !fullName.isEmpty, fullName != current.fullName else { return (nil, nil) }
        do {
            return (try api.updateUser(id: current.id, QBUserUpdate(fullName: fullName)), nil)
        } catch {
            return (nil, Failure(describing: error, doing: "change the display name"))
        }
    }

    private func result(user: QBUser?, signedUp: Bool, chat: LoginResult.Chat) throws(Failure) -> LoginResult {
        guard let user, let token = api.token else { throw Failure(.failure, "the server did not return a user session") }
        return LoginResult(user: user, token: token,
                           expiresAt: api.tokenExpiresAt ?? Date().addingTimeInterval(7200),
                           signedUp: signedUp, chat: chat)
    }
}
