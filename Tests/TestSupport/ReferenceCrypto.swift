internal import CCrypto

/// OpenSSL's own answers, for checking code that computes the same thing another way.
public enum ReferenceCrypto {
    /// `PKCS5_PBKDF2_HMAC` with SHA-256.
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBytes { p in
            PKCS5_PBKDF2_HMAC(p.bindMemory(to: CChar.self).baseAddress, Int32(p.count), salt, Int32(salt.count),
                              Int32(iterations), EVP_sha256(), Int32(length), &out)
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed")
        return out
    }
}
