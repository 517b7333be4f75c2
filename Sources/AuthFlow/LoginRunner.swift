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
    package init(identity: UserCredentials.Identity, password: String, fullName: String, options: LoginFlow.Options) {
        self.identity = identity; self.password = password; self.fullName = fullName; self.options = options
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
}

/// Carries out what `LoginFlow` asks for, against the REST API and chat.
package final class LoginRunner {
    private let api: QuickBloxClient
    private let chat: (any ChatConnecting)?
    private let chatAuth: ClientConfig.ChatAuth
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
                do { user = try api.logIn(credentials); event = .loggedIn } catch {
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
            case .succeed(let signedUp, let chatConnected):
                return try result(user: user, signedUp: signedUp, chat: chatConnected ? .connected : .skipped)
            case .fail(let failure):
                let error = lastError ?? Failure(.failure, "login failed")
                if case .stepFailed(.connectingChat) = failure {
                    return try result(user: user, signedUp: flow.signedUp, chat: .failed(error))
                }
                throw error
            }
            action = flow.handle(event)
        }
    }

    private func result(user: QBUser?, signedUp: Bool, chat: LoginResult.Chat) throws(Failure) -> LoginResult {
        guard let user, let token = api.token else { throw Failure(.failure, "the server did not return a user session") }
        return LoginResult(user: user, token: token,
                           expiresAt: api.tokenExpiresAt ?? Date().addingTimeInterval(7200),
                           signedUp: signedUp, chat: chat)
    }
}
