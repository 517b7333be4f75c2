// Key derivation for stored passwords (libcrypto).
internal import CCrypto

/// PBKDF2 with HMAC-SHA256 (wraps `PKCS5_PBKDF2_HMAC`).
package enum PBKDF2 {
    /// `length` bytes derived from `password` and `salt` in `iterations` rounds.
    package static func sha256(_ password: String, salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        let pass = Array(password.utf8)
        var out = [UInt8](repeating: 0, count: length)
        let ok = pass.withUnsafeBytes { p in
            salt.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    PKCS5_PBKDF2_HMAC(p.bindMemory(to: CChar.self).baseAddress, Int32(p.count),
                                      s.baseAddress, Int32(s.count), Int32(iterations), EVP_sha256(),
                                      Int32(o.count), o.baseAddress)
                }
            }
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed")
        return out
    }
}
