import SandboxCrypto

/// 24-hex MongoDB-style ObjectIds, as QuickBlox uses for dialogs and messages:
/// 4 bytes of seconds, 5 random bytes fixed per generator, a 3-byte counter.
/// Ids made by one generator sort in creation order (within the counter's range).
package struct ObjectIdGenerator {
    private let processUnique: [UInt8] = SecureRandom.bytes(5)
    private var counter = UInt32.random(in: 0..<0x80_0000)

    package init() {}

    package mutating func next(at time: Double) -> String {
        counter = (counter &+ 1) & 0xFF_FFFF
        let seconds = UInt32(truncatingIfNeeded: Int(time.rounded(.down)))
        var bytes: [UInt8] = [UInt8(seconds >> 24), UInt8((seconds >> 16) & 0xFF), UInt8((seconds >> 8) & 0xFF), UInt8(seconds & 0xFF)]
        bytes += processUnique
        bytes += [UInt8(counter >> 16), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF)]
        return Hex.string(bytes)
    }

    /// True for 24 hex digits (either case).
    package static func isValid(_ id: String) -> Bool {
        // Over the contiguous bytes: every routed message asks, several times.
        guard id.utf8.count == 24 else { return false }
        var id = id
        return id.withUTF8 { $0.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) } }
    }
}
