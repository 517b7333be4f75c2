// Random bytes from libcrypto, for salts, tokens and ids. (The TLS certificate's serial is
// drawn by SandboxNetwork, which makes the certificate with OpenSSL itself.)
internal import CCrypto

/// Cryptographically random bytes (wraps `RAND_bytes`).
package enum SecureRandom {
    package static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "RAND_bytes failed")
        return out
    }

    /// A session token: 40 random lowercase hex characters.
    package static func token() -> String { Hex.string(bytes(20)) }
}
