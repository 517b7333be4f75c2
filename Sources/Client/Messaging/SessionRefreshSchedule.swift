/// When a long `listen` (or `send --lines`) asks the server to keep its REST session (docs/protocol.md §2).
/// The session lives a fixed time after its last request, so a cheap request once
/// half of the remaining lifetime is gone always finds it alive, with half to
/// spare for a retry. Pure: times are passed in (seconds since the epoch).
package struct SessionRefreshSchedule: Sendable, Equatable {
    /// Never sooner than this after the last attempt: a clock far from the
    /// server's can make every expiry look past, and that must not become a loop.
    package static let minimumInterval = 1.0
    /// After a failure, try again within this, or sooner if the session is nearer its end.
    package static let retryInterval = 5.0
    /// Refresh at least this often, whatever the lifetime: for tests and `make bench`
    /// (`CHATCTL_SESSION_REFRESH_EVERY`), to see many refreshes in little time.
    package let maximumInterval: Double?
    /// When the next refresh is due.
    package private(set) var dueAt: Double

    /// Due at once until told otherwise.
    package init(maximumInterval: Double? = nil) {
        self.maximumInterval = maximumInterval
        dueAt = 0
    }

    package func isDue(at now: Double) -> Bool { now >= dueAt }

    package func secondsUntilDue(at now: Double) -> Double { max(0, dueAt - now) }

    /// The server answered at `now`, keeping the session until `expiresAt`.
    package mutating func refreshed(at now: Double, expiresAt: Double) {
        schedule(at: now, interval: (expiresAt - now) / 2)
    }

    /// The refresh failed at `now` (the server out of reach): soon again, while the session may still live.
    package mutating func failed(at now: Double, expiresAt: Double) {
        schedule(at: now, interval: min(Self.retryInterval, (expiresAt - now) / 4))
    }

    /// The server refused to keep the session at `now` (it is gone and cannot be renewed): a
    /// command that goes on without it asks again only after `refusedInterval`.
    package mutating func refused(at now: Double) {
        schedule(at: now, interval: Self.refusedInterval)
    }

    /// After a refusal: another chatctl may log in meanwhile, but nothing changes sooner.
    package static let refusedInterval = 60.0

    private mutating func schedule(at now: Double, interval: Double) {
        var wait = max(Self.minimumInterval, interval)
        if let maximumInterval { wait = min(wait, maximumInterval) }
        dueAt = now + wait
    }
}
