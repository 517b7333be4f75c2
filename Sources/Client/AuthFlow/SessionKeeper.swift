#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import Diagnostics
import HTTPTransport
import QuickBloxAPI

/// Gives later commands a live session: the stored one, kept alive and renewed
/// silently when the server has forgotten it and a password is at hand.
package final class SessionKeeper {
    package let config: ClientConfig
    package let store: SessionStore
    private let transport: any HTTPTransporting
    private let now: () -> Date

    package init(config: ClientConfig, store: SessionStore, transport: any HTTPTransporting, now: @escaping () -> Date = Date.init) {
        self.config = config; self.store = store; self.transport = transport; self.now = now
    }

    package func makeClient(token: String? = nil) -> QuickBloxClient {
        let client = QuickBloxClient(apiEndpoint: config.apiEndpoint, credentials: config.credentials, transport: transport,
                                    requestTimeout: config.requestTimeout)
        client.token = token
        return client
    }

    package static let notLoggedIn = Failure(.authentication, "not logged in", hint: "run 'chatctl login'")

    /// The stored session, or an authentication error saying how to log in.
    package func storedSession() throws(Failure) -> StoredSession {
        guard let session = try store.load() else { throw Self.notLoggedIn }
        return session
    }

    /// When `liveSession` asks the server about the session.
    package enum Check: Sendable {
        /// At once (`GET /session.json`), before returning it (`status`).
        case now
        /// With the first request that uses it, which renews it if need be.
        case byFirstRequest
    }

    /// The stored session and a client that keeps it alive (docs/protocol.md §2):
    /// each request slides its expiry, and a session the server has forgotten is
    /// renewed with `password` (asked for only then, given the login) and the
    /// request repeated once. `checked: .now` asks the server first.
    /// The stored expiry is not trusted to say "expired": the server decides.
    package func liveSession(checked: Check, password: @escaping (String) -> String?) throws(Failure) -> (RenewableSession, QuickBloxClient) {
        let stored = try storedSession()
        let session = RenewableSession(stored, config: config, store: store, transport: transport, password: password, now: now)
        let client = makeClient(token: stored.token)
        client.tokenExpiresAt = Date(timeIntervalSince1970: stored.expiresAt)
        client.sessionRenewal = session
        if checked == .now {
            do { _ = try client.currentSession() } catch { throw Failure(describing: error, doing: "check session") }
        }
        return (session, client)
    }

    /// Saves what a login produced; `method`: how (a token login's `login` is the user's own).
    package func save(_ result: LoginResult, login: String?, method: LoginMethod = .password) throws(Failure) {
        let session = StoredSession(token: result.token, expiresAt: result.expiresAt.timeIntervalSince1970,
                                    loggedInAt: now().timeIntervalSince1970, userId: result.user.id, login: login,
                                    user: result.user.raw, applicationId: config.credentials.applicationId,
                                    apiEndpoint: config.apiEndpoint, chatEndpoint: config.chatEndpoint.description,
                                    method: method)
        try store.save(session)
    }

    package enum LogoutOutcome: Sendable, Equatable {
        case loggedOut(login: String?)
        /// Removed locally; the server could not be told (the error says why).
        case removedLocally(login: String?, serverError: Failure)
        case wasNotLoggedIn
    }

    /// Ends the session on the server (`DELETE /session.json`) and removes it
    /// locally; a session the server already forgot is not an error.
    package func logOut() throws(Failure) -> LogoutOutcome {
        guard let session = try? store.load() else {
            try store.remove()
            return .wasNotLoggedIn
        }
        let client = makeClient(token: session.token)
        var serverError: Failure?
        do { try client.deleteSession() } catch {
            if case .http(let status) = error.kind, status == 401 || status == 404 {
                // Already gone on the server: nothing left to end.
            } else {
                serverError = Failure(describing: error, doing: "end session")
            }
        }
        try store.remove()
        if let serverError { return .removedLocally(login: session.login, serverError: serverError) }
        return .loggedOut(login: session.login)
    }
}
