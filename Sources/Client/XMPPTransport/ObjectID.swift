/// A QuickBlox/MongoDB ObjectId: 24 lowercase hex digits (4-byte big-endian unix
/// time, 5 random bytes, 3-byte counter). A chat message's stanza `id` and its
/// `_id` in history are the same ObjectId.
package struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 24 lowercase hex digits.
    package let rawValue: String

    /// Accepts 24 hex digits in either case; stores them lowercased.
    package init?(_ text: String) {
        guard text.utf8.count == 24, text.utf8.allSatisfy({ Self.hexValue($0) != nil }) else { return nil }
        rawValue = text.lowercased()
    }

    /// From the 12 raw bytes.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 12, "an ObjectId has 12 bytes")
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(24)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        rawValue = String(decoding: hex, as: UTF8.self)
    }

    /// The creation time in unix seconds (the first four bytes).
    package var timestamp: UInt32 {
        var value: UInt32 = 0
        for byte in rawValue.utf8.prefix(8) { value = value << 4 | UInt32(Self.hexValue(byte)!) }
        return value
    }

    package var description: String { rawValue }

    package static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
