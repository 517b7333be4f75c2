import XMPPTransport

/// How a chat engine meets a lost connection (docs/protocol.md §7): one loop, one backoff
/// (capped, jittered, `ReconnectBackoff`), and what each kind of command can bear.
package struct ReconnectPolicy: Sendable, Equatable {
    package var backoff: ReconnectBackoff
    /// Attempts after each loss before giving up; nil: never give up.
    package var attemptsPerLoss: Int?
    /// No attempt starts once nothing was acknowledged for this many seconds; nil: no such bound.
    package var quietLimit: Double?
    /// The first connect is retried like a lost one (the chat view opens offline and keeps
    /// trying); otherwise a first connect that fails ends the command.
    package var retriesFirstConnect: Bool
    /// Chat refusing the credentials when the session is still good over REST ends the
    /// command (exit 4) rather than being tried again later.
    package var refusalEnds: Bool

    /// No reconnect: what is not acknowledged when the connection goes waits in the outbox
    /// (`outbox flush`, one message over chat, `read`).
    package static let never = ReconnectPolicy(backoff: ReconnectBackoff(base: 0.5, cap: 4, stableAfter: 30), attemptsPerLoss: 0,
                                               quietLimit: nil, retriesFirstConnect: false, refusalEnds: true)
    /// A stream of sends (`send --lines`) outlives a cut stream, within bounds: a few attempts,
    /// none once the server has acknowledged nothing for half a minute.
    package static let stream = ReconnectPolicy(backoff: ReconnectBackoff(base: 0.5, cap: 4, stableAfter: 30), attemptsPerLoss: 4,
                                                quietLimit: 30, retriesFirstConnect: false, refusalEnds: true)
    /// `listen`: for as long as it runs.
    package static let forever = ReconnectPolicy(backoff: ReconnectBackoff(base: 0.5, cap: 30, stableAfter: 30), attemptsPerLoss: nil,
                                                 quietLimit: nil, retriesFirstConnect: false, refusalEnds: true)
    /// The chat view: opens without a connection and keeps trying, whatever the reason.
    package static let view = ReconnectPolicy(backoff: ReconnectBackoff(base: 1, cap: 30, stableAfter: 30), attemptsPerLoss: nil,
                                              quietLimit: nil, retriesFirstConnect: true, refusalEnds: false)

    package init(backoff: ReconnectBackoff, attemptsPerLoss: Int?, quietLimit: Double?, retriesFirstConnect: Bool, refusalEnds: Bool) {
        self.backoff = backoff; self.attemptsPerLoss = attemptsPerLoss; self.quietLimit = quietLimit
        self.retriesFirstConnect = retriesFirstConnect; self.refusalEnds = refusalEnds
    }
}
