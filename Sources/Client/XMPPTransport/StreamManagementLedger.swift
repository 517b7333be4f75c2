/// XEP-0198 bookkeeping for the stanzas this client sends: each gets a sequence
/// number (1, 2, ...) and the server's `<a h="N"/>` acknowledges 1...N. A message
/// counts as sent only once acknowledged: a stream that dies loses what it had not
/// acknowledged, and only the outbox can send that again. Counters wrap at 2^32.
package struct StreamManagementLedger: Sendable, Equatable {
    package enum Status: Sendable, Equatable {
        /// Session not established, or `<enable/>` sent and no answer yet.
        case pending
        /// The server answered `<enabled/>`.
        case enabled
        /// The server answered `<failed/>` or does not offer SM.
        case unavailable
    }

    package private(set) var status: Status = .pending
    /// Stanzas sent since the session started (libstrophe sends `<enable/>` just before).
    package private(set) var sentCount: UInt32 = 0
    /// The last `h` the server reported.
    package private(set) var acknowledgedCount: UInt32 = 0

    package init() {}

    package mutating func enabled() { status = .enabled }
    package mutating func failed() { status = .unavailable }

    /// Records one outgoing stanza and returns its sequence number.
    package mutating func recordSent() -> UInt32 {
        sentCount &+= 1
        return sentCount
    }

    /// Applies `<a h="h"/>`; returns the sequence numbers newly acknowledged
    /// (empty when nothing new), or nil when `h` acknowledges stanzas never sent.
    package mutating func acknowledge(h: UInt32) -> [UInt32]? {
        let outstanding = sentCount &- acknowledgedCount
        let advance = h &- acknowledgedCount
        guard advance <= outstanding else { return nil }
        var newly: [UInt32] = []
        newly.reserveCapacity(Int(advance))
        var n = acknowledgedCount
        for _ in 0..<advance { n &+= 1; newly.append(n) }
        acknowledgedCount = h
        return newly
    }

    /// Whether stanza `sequence` has been acknowledged.
    package func isAcknowledged(_ sequence: UInt32) -> Bool {
        let outstanding = sentCount &- acknowledgedCount
        let age = sentCount &- sequence  // 0 for the newest
        return age >= outstanding && age < UInt32.max / 2
    }
}
