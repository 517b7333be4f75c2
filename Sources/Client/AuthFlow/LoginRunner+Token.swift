#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import QuickBloxAPI

/// A login from a session another program made, as QuickBlox's SDKs start "with a token":
/// `LoginFlow` from `.sessionToken`: the server says whose session it is (`GET /session.json`),
/// the user is read, then chat connects with the token as its password. Nothing is signed up or
/// logged in.
extension LoginRunner {
    package func run(token: SessionToken, connectChat: Bool) throws(Failure) -> LoginResult {
        var flow = LoginFlow(options: .init(start: .sessionToken, connectChat: connectChat && chat != nil))
        var action = flow.start()
        if flow.options.connectChat { chat?.prepare() }
        api.token = token.value
        var session: QBSession?
        var user: QBUser?
        var lastError: Failure?
        while true {
            onStep?(action)
            let event: LoginFlow.Event
            switch action {
            case .checkToken:
                do {
                    let answer = try api.currentSession()
                    session = answer
                    lastError = refusal(of: answer)
                    event = lastError == nil ? .tokenAccepted : .tokenRejected
                } catch where error.isUnauthorized {
                    lastError = Failure(.authentication, "the session token is unknown or has expired (401 from \(error.request))",
                                        hint: "make a new session and pass its token, or log in with 'chatctl login --login NAME'")
                    event = .tokenRejected
                } catch {
                    lastError = Failure(describing: error, doing: "check the session token"); event = .stepFailed
                }
            case .readUser:
                guard let session else { preconditionFailure("the user read before the token was checked") }
                do { user = try api.user(id: session.userId); event = .userRead } catch {
                    lastError = Failure(describing: error, doing: "read the session's user"); event = .stepFailed
                }
            case .connectChat:
                guard let chat, let user else { preconditionFailure("chat connect before the user was read") }
                if chatAuth == .password {
                    // The config wants chat's password, which a token does not bring.
                    lastError = Failure(.authentication, "chat wants the password (chatAuth: password in the config), which a token login has not",
                                        hint: "log in with the password, or leave chat out with --no-chat")
                    event = .stepFailed
                } else {
                    do { try chat.connect(userId: user.id, secret: token.value); event = .chatConnected } catch {
                        lastError = Failure(describing: error); event = .stepFailed
                    }
                }
            case .succeed(_, let chatConnected):
                return try result(token: token, session: session, user: user, chat: chatConnected ? .connected : .skipped)
            case .fail(let failure):
                let error = lastError ?? Failure(.failure, "login failed")
                // The session stands when only chat failed: the login is made, its chat half reported.
                if case .stepFailed(.connectingChat) = failure {
                    return try result(token: token, session: session, user: user, chat: .failed(error))
                }
                throw error
            case .createSession, .signUp, .logIn:
                preconditionFailure("a token login signs nobody up or in")
            }
            action = flow.handle(event)
        }
    }

    /// Why a live session cannot be this config's login: an application's (no user) or another application's.
    private func refusal(of session: QBSession) -> Failure? {
        guard session.isUserSession else {
            return Failure(.authentication, "the session token is an application session, which belongs to no user and cannot chat",
                           hint: "pass the token of a user's session, or log in with 'chatctl login --login NAME'")
        }
        guard session.applicationId == api.credentials.applicationId else {
            return Failure(.authentication, "the session token belongs to application \(session.applicationId), "
                           + "not to this config's \(api.credentials.applicationId)",
                           hint: "use the config of the token's application (--config or --profile)")
        }
        return nil
    }

    private func result(token: SessionToken, session: QBSession?, user: QBUser?, chat: LoginResult.Chat) throws(Failure) -> LoginResult {
        guard let session, let user else { throw Failure(.failure, "the server did not say whose session it is") }
        return LoginResult(user: user, token: token.value, expiresAt: api.tokenExpiresAt ?? session.expiresAt,
                           signedUp: false, chat: chat)
    }
}
