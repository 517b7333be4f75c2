/// What a load message says in its body: which stream it belongs to, its place in that
/// stream and when it was handed to the socket, so the receiver can check that each
/// arrives once and in order and time it (`load p 12 345 1234567890`: a private message
/// from user 12, its 345th, sent at that monotonic nanosecond).
package struct LoadMessage: Equatable {
    package enum Kind: UInt8 {
        case privateChat = 0x70   // "p"
        case group = 0x67         // "g"
    }

    package var kind: Kind
    /// The sender's index in the run (not its user id).
    package var sender: Int
    /// 1, 2, 3… per sender and kind.
    package var sequence: Int
    /// `MonotonicClock.nanoseconds` when it was written.
    package var sentAt: UInt64

    package init(kind: Kind, sender: Int, sequence: Int, sentAt: UInt64) {
        self.kind = kind
        self.sender = sender
        self.sequence = sequence
        self.sentAt = sentAt
    }

    package var body: String { "load \(Character(Unicode.Scalar(kind.rawValue))) \(sender) \(sequence) \(sentAt)" }

    /// The message in `body`, or nil when the body is not a load message.
    package init?<Bytes: Collection>(body: Bytes) where Bytes.Element == UInt8 {
        var i = body.startIndex
        for expected in "load ".utf8 {
            guard i != body.endIndex, body[i] == expected else { return nil }
            i = body.index(after: i)
        }
        guard i != body.endIndex, let kind = Kind(rawValue: body[i]) else { return nil }
        i = body.index(after: i)
        var numbers: [UInt64] = []
        while i != body.endIndex {
            guard body[i] == UInt8(ascii: " ") else { return nil }
            i = body.index(after: i)
            var value: UInt64 = 0
            var digits = 0
            while i != body.endIndex, body[i] >= 48, body[i] <= 57 {
                value = value &* 10 &+ UInt64(body[i] - 48)
                digits += 1
                i = body.index(after: i)
            }
            guard digits > 0 else { return nil }
            numbers.append(value)
        }
        guard numbers.count == 3, numbers[0] <= UInt64(Int.max), numbers[1] <= UInt64(Int.max) else { return nil }
        self.init(kind: kind, sender: Int(numbers[0]), sequence: Int(numbers[1]), sentAt: numbers[2])
    }
}
