#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics

/// A long session outlives any one token (docs/protocol.md §2): the engine keeps the REST
/// session alive with a cheap request before it expires, and a chat reconnect authenticates
/// with whatever token is current. When the session cannot be kept (no password to renew
/// it, a password that stopped working), that ends `run` instead of retrying forever.
extension ChatEngine {
    /// Starts the schedule from the expiry the last request reported.
    func startSessionUpkeep() {
        let now = Date().timeIntervalSince1970
        feed(.sessionUpkeepStarted(now: now, expiresAt: service.api.tokenExpiresAt?.timeIntervalSince1970 ?? now))
    }

    /// Seconds the loop may wait before the session needs attention.
    var secondsUntilSessionRefresh: Double { core.refreshSchedule.secondsUntilDue(at: Date().timeIntervalSince1970) }

    /// `GET /session.json` when due: it slides the session, or renews one the server forgot
    /// (through the client's `sessionRenewal`). Throws only what ends the session: an
    /// authentication failure.
    func keepSessionAlive() throws(Failure) {
        guard core.refreshSchedule.isDue(at: Date().timeIntervalSince1970) else { return }
        _ = try refreshSession()
    }

    /// Between the batches of a command that sends for long (`send --lines`): the session is
    /// kept as `listen` keeps it, but one that cannot be kept (no password to renew it) does
    /// not end the command. The open connection goes on without it; only a reconnect needs it,
    /// and then what waits goes to the outbox. Told once, tried again after a minute (a
    /// `chatctl login` elsewhere meanwhile is taken over).
    func keepSessionAliveWhileSending() {
        do {
            try keepSessionAlive()
        } catch {
            feed(.sessionRefused(error, now: Date().timeIntervalSince1970))
        }
    }

    /// Asks the server now; true when the session is alive (renewed if it had to be). A
    /// temporary failure is told once per run of failures and retried later.
    @discardableResult
    func refreshSession() throws(Failure) -> Bool {
        do {
            _ = try service.api.currentSession()
        } catch {
            let failure = Failure(describing: error, doing: "keep the session alive")
            if failure.kind == .authentication { throw failure }
            let now = Date().timeIntervalSince1970
            feed(.sessionKeepFailed(failure, now: now, expiresAt: service.api.tokenExpiresAt?.timeIntervalSince1970 ?? now))
            return false
        }
        let now = Date().timeIntervalSince1970
        feed(.sessionKept(now: now, expiresAt: service.api.tokenExpiresAt?.timeIntervalSince1970 ?? now))
        return true
    }
}
