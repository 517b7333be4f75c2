/// When to ping the server and when to give the connection up (XEP-0199): ping
/// after `interval` seconds without hearing anything; if nothing at all arrives
/// within `timeout` seconds of that ping, the connection is dead (a half-open TCP
/// connection never reports an error by itself). Pure; times are seconds on any
/// monotonic clock.
package struct KeepAliveSchedule: Sendable, Equatable {
    package enum Action: Sendable, Equatable { case none, sendPing, connectionDead }

    package let interval: Double
    package let timeout: Double
    package private(set) var lastHeard: Double
    /// When the unanswered ping went out, if one is outstanding.
    package private(set) var pingSentAt: Double?

    package init(interval: Double, timeout: Double, now: Double) {
        self.interval = interval; self.timeout = timeout; lastHeard = now
    }

    /// Anything arrived from the server (a stanza, an ack, a pong).
    package mutating func heard(at now: Double) {
        lastHeard = max(lastHeard, now)
        pingSentAt = nil
    }

    /// What to do now. `.sendPing` is returned once per silence; the caller sends it.
    package mutating func tick(now: Double) -> Action {
        if let sent = pingSentAt {
            return now - sent >= timeout ? .connectionDead : .none
        }
        guard interval > 0, now - lastHeard >= interval else { return .none }
        pingSentAt = now
        return .sendPing
    }
}
