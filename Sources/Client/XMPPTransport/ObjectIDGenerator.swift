#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Makes fresh ObjectIds the way MongoDB drivers do: the 5 random bytes are drawn
/// once per generator and the 3-byte counter starts at a random value, so ids from
/// one generator are unique even within one second, and differ across processes.
/// The start is in the counter's lower half, so 8 million ids in one second still
/// sort in creation order before it wraps.
package struct ObjectIDGenerator: Sendable {
    private let randomPart: [UInt8]
    private var counter: UInt32

    package init() {
        var rng = SystemRandomNumberGenerator()
        self.init(randomPart: (0..<5).map { _ in UInt8.random(in: 0...255, using: &rng) },
                  counter: UInt32.random(in: 0..<0x80_0000, using: &rng))
    }

    /// A generator with fixed random bytes and counter start (tests).
    package init(randomPart: [UInt8], counter: UInt32) {
        precondition(randomPart.count == 5, "the random part of an ObjectId has 5 bytes")
        self.randomPart = randomPart
        self.counter = counter & 0xFF_FFFF
    }

    /// The next id, stamped with the current time.
    package mutating func next() -> ObjectID {
        next(unixTime: UInt32(clamping: Int64(Date().timeIntervalSince1970)))
    }

    /// The next id, stamped with `unixTime` (seconds). The counter wraps at 2^24.
    package mutating func next(unixTime: UInt32) -> ObjectID {
        let count = counter
        counter = (counter + 1) & 0xFF_FFFF
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        bytes.append(UInt8(truncatingIfNeeded: unixTime >> 24))
        bytes.append(UInt8(truncatingIfNeeded: unixTime >> 16))
        bytes.append(UInt8(truncatingIfNeeded: unixTime >> 8))
        bytes.append(UInt8(truncatingIfNeeded: unixTime))
        bytes.append(contentsOf: randomPart)
        bytes.append(UInt8(truncatingIfNeeded: count >> 16))
        bytes.append(UInt8(truncatingIfNeeded: count >> 8))
        bytes.append(UInt8(truncatingIfNeeded: count))
        return ObjectID(bytes: bytes)
    }
}
