/// XEP-0198 on one stream, the server's half, as a value (`XMPPClientConnection` performs what
/// it says): once the client asked for resumption, every stanza sent is counted and kept until
/// acknowledged (`UnacknowledgedStanzas`), and a connection that drops without closing its stream
/// leaves the session waiting to be resumed (hibernating), with what it had not acknowledged.
struct StreamManagement {
    /// What becomes of an element the server sends on this stream.
    enum Delivery: Equatable {
        case write
        /// Write it, then ask for an ack (`<r/>`).
        case writeAndRequestAck
        /// The session waits for its client: kept for the stream that resumes it, not written.
        case withheld
        /// More stanzas unacknowledged than may be kept: the session can no longer be resumed.
        case overflowed
    }

    /// Sent and not yet acknowledged, once the client asked for resumption; nil otherwise.
    private(set) var unacknowledged: UnacknowledgedStanzas?
    /// The connection is gone but the session waits to be resumed until then (monotonic
    /// seconds): it stays bound and in its rooms, and what is sent to it is kept.
    private(set) var hibernationDeadline: Double?
    var isHibernating: Bool { hibernationDeadline != nil }

    /// Whether the session may be resumed (the client asked, and not too much is unacknowledged).
    var isResumable: Bool { unacknowledged != nil }

    mutating func enableResumption(requestEvery: Int, capacity: Int) {
        unacknowledged = UnacknowledgedStanzas(requestEvery: requestEvery, capacity: capacity)
    }

    /// `bytes`, one element as the server writes it, is being sent: counted and kept when it is a stanza.
    mutating func sending(_ bytes: [UInt8]) -> Delivery {
        guard unacknowledged != nil, UnacknowledgedStanzas.isStanza(bytes) else { return isHibernating ? .withheld : .write }
        let askForAck = unacknowledged!.record(bytes)
        if unacknowledged!.isOverflowing { return .overflowed }
        if isHibernating { return .withheld }
        return askForAck ? .writeAndRequestAck : .write
    }

    /// `<a h/>`: nil when nothing is kept (no resumption asked for, or no longer possible).
    mutating func acknowledge(_ h: UInt32) -> UnacknowledgedStanzas.AckOutcome? { unacknowledged?.acknowledge(h) }

    /// The connection dropped: the session waits until `deadline`.
    mutating func hibernate(until deadline: Double) {
        hibernationDeadline = deadline
    }

    /// Nothing more is kept: the session can no longer be resumed.
    mutating func stopKeeping() { unacknowledged = nil }

    /// A resumed stream takes over what the previous one had not had acknowledged.
    mutating func takeOver(_ queue: UnacknowledgedStanzas) { unacknowledged = queue }
}
