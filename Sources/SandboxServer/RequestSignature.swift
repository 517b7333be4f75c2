// Verifies `POST /session.json` signatures (docs/protocol.md §2).
// CEvent already carries the OpenSSL headers; importing CCrypto too clashes (fd_set defined twice).
internal import CEvent

/// The string-to-sign and its HMAC check; pure apart from the HMAC call.
struct RequestSignature {
    enum Algorithm { case sha1, sha256 }

    /// Every parameter but `signature`, as raw `name=value`, sorted bytewise, joined with `&`.
    static func stringToSign(_ parameters: [(String, String)]) -> String {
        parameters
            .filter { $0.0 != "signature" }
            .map { Array("\($0.0)=\($0.1)".utf8) }
            .sorted { $0.lexicographicallyPrecedes($1) }
            .map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: "&")
    }

    /// Which HMAC a hex signature is, told apart by its length (40: SHA-1, 64: SHA-256).
    static func algorithm(ofHex signature: String) -> Algorithm? {
        switch signature.utf8.count {
        case 40: return .sha1
        case 64: return .sha256
        default: return nil
        }
    }

    /// Lowercase hex HMAC of `message` keyed with `secret`.
    static func hmacHex(_ algorithm: Algorithm, secret: String, message: String) -> String {
        hex(hmac(algorithm, key: Array(secret.utf8), message: Array(message.utf8)))
    }

    /// The raw HMAC of `message` keyed with `key` (wraps `HMAC`).
    static func hmac(_ algorithm: Algorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let md = algorithm == .sha1 ? EVP_sha1() : EVP_sha256()
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

    /// True when `signature` (either algorithm, any hex case) signs `parameters` with `secret`.
    static func isValid(_ signature: String, parameters: [(String, String)], secret: String) -> Bool {
        guard let algorithm = algorithm(ofHex: signature) else { return false }
        let expected = Array(hmacHex(algorithm, secret: secret, message: stringToSign(parameters)).utf8)
        return constantTimeEqual(expected, Array(signature.lowercased().utf8))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
