/// Maps XEP-0198 sequence numbers to the ids of the messages they carried, and
/// decides when to ask the server for an ack (`<r/>`): after every `requestEvery`
/// unrequested stanzas and whenever sending goes idle, never once per message.
/// Without SM (server said `<failed/>`, or never answered `<enable/>`), an idle
/// queue gets a ping instead: its reply proves the server processed every stanza
/// sent before it, so it acknowledges them like `<a h/>` would (the numbering is
/// the same: every stanza we send follows libstrophe's `<enable/>`).
/// Pure: `XMPPConnection` feeds it sends, acks and pongs, and acts on its answers.
package struct DeliveryTracker: Sendable, Equatable {
    package private(set) var ledger = StreamManagementLedger()
    /// (sequence number, message id) of tracked stanzas not yet acknowledged, oldest first.
    private var pending: [(sequence: UInt32, id: ObjectID)] = []
    private var pendingHead = 0
    /// Stanzas sent since the last `<r/>`.
    package private(set) var sentSinceRequest = 0
    /// Sequence number covered by the last `<r/>` still unanswered (nil: none outstanding).
    package private(set) var requestedUpTo: UInt32?
    package let requestEvery: Int

    package init(requestEvery: Int = 50) { self.requestEvery = max(1, requestEvery) }

    package mutating func enabled() { ledger.enabled() }
    package mutating func failed() { ledger.failed() }

    /// Records one outgoing stanza (with the message id it carries, if tracked) and
    /// returns its sequence number and whether to send `<r/>` right after it.
    package mutating func recordSent(messageID: ObjectID?) -> (sequence: UInt32, requestAck: Bool) {
        let sequence = ledger.recordSent()
        if let messageID { pending.append((sequence, messageID)) }
        sentSinceRequest += 1
        let request = ledger.status == .enabled && sentSinceRequest >= requestEvery
        if request { noteRequested() }
        return (sequence, request)
    }

    package enum IdleAction: Sendable, Equatable {
        case none
        /// Send `<r/>`.
        case requestAck
        /// No SM: send a ping, then `barrierSent()`; its reply acknowledges through its sequence number.
        case pingBarrier
    }

    /// Sending went idle: what to send so that stanzas not yet covered by a request
    /// get acknowledged.
    package mutating func sendQueueIdle() -> IdleAction {
        guard sentSinceRequest > 0, ledger.acknowledgedCount != ledger.sentCount else { return .none }
        noteRequested()
        return ledger.status == .enabled ? .requestAck : .pingBarrier
    }

    /// The barrier ping was sent (and counted): it needs no barrier of its own.
    package mutating func barrierSent() { noteRequested() }

    private mutating func noteRequested() {
        sentSinceRequest = 0
        requestedUpTo = ledger.sentCount
    }

    /// Applies `<a h/>`: the ids newly acknowledged, in send order. A repeated,
    /// stale (lower) or impossible (beyond sent) `h` acknowledges nothing.
    package mutating func acknowledge(h: UInt32) -> [ObjectID] {
        guard let newly = ledger.acknowledge(h: h), !newly.isEmpty else { return [] }
        if let requested = requestedUpTo, ledger.isAcknowledged(requested) { requestedUpTo = nil }
        var ids: [ObjectID] = []
        while pendingHead < pending.count, ledger.isAcknowledged(pending[pendingHead].sequence) {
            ids.append(pending[pendingHead].id)
            pendingHead += 1
        }
        if pendingHead > 1024, pendingHead * 2 > pending.count {  // compact now and then, not per ack
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return ids
    }

    package func isAcknowledged(_ sequence: UInt32) -> Bool { ledger.isAcknowledged(sequence) }

    /// Tracked messages sent but not acknowledged, oldest first.
    package var unacknowledged: [ObjectID] { pending[pendingHead...].map(\.id) }

    package static func == (lhs: DeliveryTracker, rhs: DeliveryTracker) -> Bool {
        lhs.ledger == rhs.ledger && lhs.unacknowledged == rhs.unacknowledged
            && lhs.sentSinceRequest == rhs.sentSinceRequest && lhs.requestedUpTo == rhs.requestedUpTo
    }
}
