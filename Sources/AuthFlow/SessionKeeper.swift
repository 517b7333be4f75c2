#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import HTTPTransport
import QuickBloxAPI

/// Gives later commands a live session: the stored one, checked, or renewed
/// silently when a password is at hand (`CHATCTL_PASSWORD`).
public final class SessionKeeper {
    public let config: ClientConfig
    public let store: SessionStore
    private let transport: any HTTPTransporting
    private let now: () -> Date

    public init(config: ClientConfig, store: SessionStore, transport: any HTTPTransporting, now: @escaping () -> Date = Date.init) {
        self.config = config; self.store = store; self.transport = transport; self.now = now
    }

    public func makeClient(token: String? = nil) -> QuickBloxClient {
        let client = QuickBloxClient(apiEndpoint: config.apiEndpoint, credentials: config.credentials, transport: transport)
        client.token = token
        return client
    }

    public static let notLoggedIn = AuthFlowError(.authentication, "not logged in", hint: "run 'chatctl login'")

    /// The stored session, or an authentication error saying how to log in.
    public func storedSession() throws(AuthFlowError) -> StoredSession {
        guard let session = try store.load() else { throw Self.notLoggedIn }
        return session
    }

    /// A session the server still accepts. With `verify`, asks the server
    /// (which also slides the expiry); otherwise trusts the stored expiry.
    /// An expired or rejected session is renewed with `renewalPassword`, or reported.
    public func liveSession(verify: Bool, renewalPassword: String?) throws(AuthFlowError) -> (StoredSession, QuickBloxClient) {
        var session = try storedSession()
        let client = makeClient(token: session.token)
        var expired = session.isExpired(now: now().timeIntervalSince1970)
        if !expired && verify {
            switch Result(catching: { () throws(QuickBloxError) in try client.currentSession() }) {
            case .success(let current):
                session.expiresAt = current.expiresAt.timeIntervalSince1970
                try store.save(session)
            case .failure(let error):
                if case .http(401) = error.kind { expired = true }
                else { throw AuthFlowError(describing: error, doing: "check session") }
            }
        }
        guard expired else { return (session, client) }
        guard let password = renewalPassword, let login = session.login else {
            try? store.remove()
            throw AuthFlowError(.authentication, "the session of '\(session.login ?? "user \(session.userId)")' has expired",
                                hint: "run 'chatctl login' again, or set CHATCTL_PASSWORD to renew it silently")
        }
        return try renew(session, login: login, password: password)
    }

    private func renew(_ old: StoredSession, login: String, password: String) throws(AuthFlowError) -> (StoredSession, QuickBloxClient) {
        let client = makeClient()
        let identity: UserCredentials.Identity = login.contains("@") ? .email(login) : .login(login)
        let qbSession: QBSession, user: QBUser
        do throws(QuickBloxError) {
            qbSession = try client.createSession(user: UserCredentials(identity: identity, password: password))
            user = try client.user(id: qbSession.userId)
        } catch {
            if case .http(401) = error.kind {
                throw AuthFlowError(.authentication, "the session expired and renewing it as '\(login)' failed: \(error.reasons.first ?? "Unauthorized")",
                                    hint: "check CHATCTL_PASSWORD, or run 'chatctl login' again")
            }
            throw AuthFlowError(describing: error, doing: "renew session")
        }
        let session = StoredSession(token: qbSession.token, expiresAt: qbSession.expiresAt.timeIntervalSince1970,
                                        loggedInAt: now().timeIntervalSince1970, userId: user.id, login: old.login,
                                        user: user.raw, applicationId: config.credentials.applicationId,
                                        apiEndpoint: config.apiEndpoint, chatEndpoint: config.chatEndpoint.description)
        try store.save(session)
        return (session, client)
    }

    /// Saves what a login produced.
    public func save(_ result: LoginResult, login: String) throws(AuthFlowError) {
        let session = StoredSession(token: result.token, expiresAt: result.expiresAt.timeIntervalSince1970,
                                    loggedInAt: now().timeIntervalSince1970, userId: result.user.id, login: login,
                                    user: result.user.raw, applicationId: config.credentials.applicationId,
                                    apiEndpoint: config.apiEndpoint, chatEndpoint: config.chatEndpoint.description)
        try store.save(session)
    }

    public enum LogoutOutcome: Sendable, Equatable {
        case loggedOut(login: String?)
        /// Removed locally; the server could not be told (the error says why).
        case removedLocally(login: String?, serverError: AuthFlowError)
        case wasNotLoggedIn
    }

    /// Ends the session on the server (`DELETE /session.json`) and removes it
    /// locally; a session the server already forgot is not an error.
    public func logOut() throws(AuthFlowError) -> LogoutOutcome {
        guard let session = try? store.load() else {
            try store.remove()
            return .wasNotLoggedIn
        }
        let client = makeClient(token: session.token)
        var serverError: AuthFlowError?
        do { try client.deleteSession() } catch {
            if case .http(let status) = error.kind, status == 401 || status == 404 {
                // Already gone on the server: nothing left to end.
            } else {
                serverError = AuthFlowError(describing: error, doing: "end session")
            }
        }
        try store.remove()
        if let serverError { return .removedLocally(login: session.login, serverError: serverError) }
        return .loggedOut(login: session.login)
    }
}
