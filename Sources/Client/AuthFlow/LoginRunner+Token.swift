#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import QuickBloxAPI

/// A login from a session another program made, as QuickBlox's SDKs start "with a token": the
/// server says whose session it is (`GET /session.json`), the user is read, then chat connects
/// with the token as its password. Nothing is signed up or logged in, so there is no flow to run.
extension LoginRunner {
    package func run(token: SessionToken, connectChat: Bool) throws(Failure) -> LoginResult {
        let connectsChat = connectChat && chat != nil
        if connectsChat { chat?.prepare() }
        api.token = token.value
        let session: QBSession
        do {
            session = try api.currentSession()
        } catch where error.isUnauthorized {
            throw Failure(.authentication, "the session token is unknown or has expired (401 from \(error.request))",
                          hint: "make a new session and pass its token, or log in with 'chatctl login --login NAME'")
        } catch {
            throw Failure(describing: error, doing: "check the session token")
        }
        guard session.isUserSession else {
            throw Failure(.authentication, "the session token is an application session, which belongs to no user and cannot chat",
                          hint: "pass the token of a user's session, or log in with 'chatctl login --login NAME'")
        }
        guard session.applicationId == api.credentials.applicationId else {
            throw Failure(.authentication, "the session token belongs to application \(session.applicationId), "
                          + "not to this config's \(api.credentials.applicationId)",
                          hint: "use the config of the token's application (--config or --profile)")
        }
        let user: QBUser
        do { user = try api.user(id: session.userId) } catch {
            throw Failure(describing: error, doing: "read the session's user")
        }
        var outcome = LoginResult.Chat.skipped
        if connectsChat, let chat {
            if chatAuth == .password {
                // The config wants chat's password, which a token does not bring.
                outcome = .failed(Failure(.authentication, "chat wants the password (chatAuth: password in the config), which a token login has not",
                                          hint: "log in with the password, or leave chat out with --no-chat"))
            } else {
                do {
                    try chat.connect(userId: user.id, secret: token.value)
                    outcome = .connected
                } catch {
                    outcome = .failed(Failure(describing: error))
                }
            }
        }
        return LoginResult(user: user, token: token.value, expiresAt: api.tokenExpiresAt ?? session.expiresAt,
                           signedUp: false, chat: outcome)
    }
}
