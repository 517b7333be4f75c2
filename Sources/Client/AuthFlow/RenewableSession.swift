#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import HTTPTransport
import QuickBloxAPI

/// The session a command works with, kept in step with the server
/// (docs/protocol.md §2): every success slides its expiry, and the session file
/// follows when that moves it meaningfully; a session the server no longer has
/// is renewed with the user's password, when one is at hand (one made from a token
/// becomes a password session then).
package final class RenewableSession: SessionRenewing {
    /// What the command knows now (the file may lag by less than `writeThreshold`).
    package private(set) var stored: StoredSession
    /// New sessions opened because the server had forgotten the old one.
    package private(set) var renewals = 0
    private let config: ClientConfig
    private let store: SessionStore
    private let transport: any HTTPTransporting
    /// The user's password (given the login), asked for only when a renewal
    /// needs it; nil: none at hand.
    private let password: (String) -> String?
    private let now: () -> Date
    /// The expiry the session file holds.
    private var savedExpiresAt: Double

    package init(_ stored: StoredSession, config: ClientConfig, store: SessionStore, transport: any HTTPTransporting,
                password: @escaping (String) -> String?, now: @escaping () -> Date = Date.init) {
        self.stored = stored; self.config = config; self.store = store; self.transport = transport
        self.password = password; self.now = now
        savedExpiresAt = stored.expiresAt
    }

    /// How far the expiry must move before the file is rewritten: a tenth of
    /// what is left, at most a minute. A command making many requests then
    /// writes about once a minute, and a session of seconds (tests) still follows.
    static func writeThreshold(remaining: Double) -> Double { min(60, max(0, remaining) / 10) }

    package func sessionExtended(until expiresAt: Date) {
        let expiry = expiresAt.timeIntervalSince1970
        stored.expiresAt = expiry
        let moved = abs(expiry - savedExpiresAt)
        guard moved > 0, moved >= Self.writeThreshold(remaining: expiry - now().timeIntervalSince1970) else { return }
        // Only the session this command holds: never one another chatctl has
        // replaced since, nor one a logout removed.
        guard var onDisk = try? store.load(), onDisk.token == stored.token else { return }
        onDisk.expiresAt = expiry
        if (try? store.save(onDisk)) != nil { savedExpiresAt = expiry }
    }

    package func renewSession(after error: QuickBloxError) throws(QuickBloxError) -> QBSession? {
        // Another chatctl may have renewed it already: carry on with its session.
        if let onDisk = try? store.load(), onDisk.token != stored.token, onDisk.userId == stored.userId,
           !onDisk.isExpired(now: now().timeIntervalSince1970) {
            stored = onDisk
            savedExpiresAt = onDisk.expiresAt
            return QBSession(token: onDisk.token, applicationId: onDisk.applicationId, userId: onDisk.userId,
                             expiresAt: Date(timeIntervalSince1970: onDisk.expiresAt))
        }
        guard let login = stored.login, let password = password(login) else {
            // A token's session came with no password: the way back is another login, or another token.
            guard stored.method == .token else { return nil }
            var ended = error
            ended.sessionFromToken = true
            throw ended
        }
        return try open(login: login, password: password)
    }

    /// A new session with `password` now (the password was just changed: `me set
    /// --password`), saved as the stored one.
    @discardableResult
    package func renew(withPassword password: String) throws(QuickBloxError) -> QBSession {
        let login = stored.login ?? (stored.user["login"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "")
        return try open(login: login, password: password)
    }

    private func open(login: String, password: String) throws(QuickBloxError) -> QBSession {
        let client = QuickBloxClient(apiEndpoint: config.apiEndpoint, credentials: config.credentials, transport: transport,
                                    requestTimeout: config.requestTimeout)
        let identity: UserCredentials.Identity = login.contains("@") ? .email(login) : .login(login)
        let session: QBSession
        do {
            session = try client.createSession(user: UserCredentials(identity: identity, password: password))
        } catch where error.status == 401 {
            // Not worded as a gone session: a password that no longer works is not cured by another try.
            throw QuickBloxError(kind: error.kind, request: error.request,
                                 reasons: ["renewing the session as '\(login)' failed: " + error.reasons.joined(separator: "; ")])
        }
        var user = stored.user
        if session.userId != stored.userId { user = try client.user(id: session.userId).raw }
        stored = StoredSession(token: session.token, expiresAt: session.expiresAt.timeIntervalSince1970,
                               loggedInAt: now().timeIntervalSince1970, userId: session.userId, login: login, user: user,
                               applicationId: config.credentials.applicationId, apiEndpoint: config.apiEndpoint,
                               chatEndpoint: config.chatEndpoint.description)
        // A file that cannot be written costs the next command one more renewal, not this one its request.
        if (try? store.save(stored)) != nil { savedExpiresAt = stored.expiresAt }
        renewals += 1
        return session
    }
}

@available(*, unavailable)
extension RenewableSession: Sendable {}
