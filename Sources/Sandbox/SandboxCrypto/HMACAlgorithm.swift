// Keyed hashes for request signatures and the storage endpoint's signatures (libcrypto).
internal import CCrypto

/// The HMACs the sandbox checks and makes: SHA-1 and SHA-256.
package enum HMACAlgorithm: Sendable {
    case sha1, sha256

    /// Which HMAC a hex code is, told apart by its length (40: SHA-1, 64: SHA-256).
    package init?(hexLength length: Int) {
        switch length {
        case 40: self = .sha1
        case 64: self = .sha256
        default: return nil
        }
    }

    /// The raw HMAC of `message` keyed with `key` (wraps `HMAC`).
    package func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let md = self == .sha1 ? EVP_sha1() : EVP_sha256()
        let ok = key.withUnsafeBytes { k in
            message.withUnsafeBytes { d in
                out.withUnsafeMutableBufferPointer { o in
                    HMAC(md, k.baseAddress, Int32(k.count), d.bindMemory(to: UInt8.self).baseAddress, d.count,
                         o.baseAddress, &length) != nil
                }
            }
        }
        precondition(ok, "HMAC failed")
        return Array(out.prefix(Int(length)))
    }

    /// Lowercase hex HMAC of `message` keyed with `secret`.
    package func hexCode(secret: String, message: String) -> String {
        Hex.string(code(key: Array(secret.utf8), message: Array(message.utf8)))
    }
}
