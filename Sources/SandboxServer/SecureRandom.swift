// CEvent already carries the OpenSSL headers; importing CCrypto too clashes (fd_set defined twice).
internal import CEvent

/// Cryptographically random bytes (wraps `RAND_bytes`).
enum SecureRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "RAND_bytes failed")
        return out
    }

    /// A session token: 40 random lowercase hex characters.
    static func token() -> String { RequestSignature.hex(bytes(20)) }
}
