#if canImport(Glibc)
import Glibc
#endif

/// The server's half of XEP-0198 for a resumable stream: the stanzas it sent, counted and kept
/// until the client acknowledges them (`<a h/>`), so that a resumed stream gets again what the
/// dropped one may have lost. A value, as the session is; `XMPPClientConnection` holds it.
struct UnacknowledgedStanzas {
    /// What the stream answers `<a h/>` with beyond what was sent.
    enum AckOutcome: Equatable {
        case accepted
        /// The client acknowledged more than was sent: the queue is emptied.
        case tooMany(sent: UInt32)
    }

    /// Stanzas sent so far, modulo 2^32 (the `h` of the last one).
    private(set) var sentCount: UInt32 = 0
    /// Stanzas the client has acknowledged (its last `h`).
    private(set) var acknowledgedCount: UInt32 = 0
    /// Sent and not acknowledged, oldest first: stanza `acknowledgedCount + 1 + i` is `pending[i]`.
    /// Bytes as written: the buffer the stanza was serialized into, shared, not a copy.
    private(set) var pending: [[UInt8]] = []
    /// Stanzas sent since the last `<r/>`.
    private var sinceRequest = 0
    /// Ask for an ack after this many stanzas.
    let requestEvery: Int
    /// Keep at most this many; `isOverflowing` beyond.
    let capacity: Int

    init(requestEvery: Int = 10, capacity: Int = 5000) {
        self.requestEvery = max(1, requestEvery)
        self.capacity = capacity
    }

    /// More unacknowledged stanzas than `capacity`: the client does not ack, or is gone too long.
    var isOverflowing: Bool { pending.count > capacity }

    /// Counts and keeps a stanza being sent. True when it is time to ask for an ack (`<r/>`).
    mutating func record(_ stanza: [UInt8]) -> Bool {
        sentCount &+= 1
        pending.append(stanza)
        sinceRequest += 1
        guard sinceRequest >= requestEvery else { return false }
        sinceRequest = 0
        return true
    }

    /// `<a h='N'/>` (or the `h` of `<resume/>`): everything up to N is in the client's hands.
    mutating func acknowledge(_ h: UInt32) -> AckOutcome {
        let newly = h &- acknowledgedCount
        guard Int(newly) <= pending.count else {
            pending.removeAll()
            acknowledgedCount = sentCount
            return .tooMany(sent: sentCount)
        }
        pending.removeFirst(Int(newly))
        acknowledgedCount = h
        return .accepted
    }

    /// Whether `text` (one element as the server writes it) is a stanza, which XEP-0198 counts.
    static func isStanza(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isStanza($0) }
    }

    static func isStanza(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { isStanza($0) } }

    /// By bytes, not Characters: every stanza the server writes comes through here.
    static func isStanza(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for name: StaticString in ["<message", "<presence", "<iq"] where bytes.count > name.utf8CodeUnitCount {
            let n = name.utf8CodeUnitCount
            guard memcmp(bytes.baseAddress!, name.utf8Start, n) == 0 else { continue }
            let next = bytes[n]
            return next == UInt8(ascii: " ") || next == UInt8(ascii: ">") || next == UInt8(ascii: "/")
        }
        return false
    }
}
