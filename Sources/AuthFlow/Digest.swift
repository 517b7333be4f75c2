internal import CCrypto

/// SHA-256 through libcrypto's one-shot `SHA256()`.
enum Digest {
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { input in
            _ = SHA256(input.baseAddress, input.count, &out)
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for b in out { hex.append(digits[Int(b >> 4)]); hex.append(digits[Int(b & 0xF)]) }
        return String(decoding: hex, as: UTF8.self)
    }
}
