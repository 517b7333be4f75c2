#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A fresh 24-hex ObjectId (4-byte time, 5 random bytes, 3-byte counter), the
/// id a message carries from the outbox to the server and back.
public enum ClientMessageID {
    private static let counter = Atomic<UInt32>(UInt32.random(in: 0..<0xFF_FFFF))
    private static let processRandom: UInt64 = UInt64.random(in: 0..<(1 << 40))

    public static func make(now: Int = Int(time(nil))) -> String {
        let count = counter.add(1, ordering: .relaxed).newValue & 0xFF_FFFF
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: now) >> UInt32(shift))) }
        for shift in stride(from: 32, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: processRandom >> UInt64(shift))) }
        for shift in stride(from: 16, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
