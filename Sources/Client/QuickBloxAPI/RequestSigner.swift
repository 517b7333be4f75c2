internal import CCryptoShim

/// Signs `POST /session.json` (docs/protocol.md §2): every parameter except
/// `signature` as `name=value` with the raw value, sorted bytewise, joined by `&`,
/// HMAC'd with the application's `auth_secret`, as lowercase hex.
package struct RequestSigner: Sendable {
    package var secret: String
    package var algorithm: SignatureAlgorithm

    package init(secret: String, algorithm: SignatureAlgorithm) {
        self.secret = secret; self.algorithm = algorithm
    }

    /// Nested fields are passed flat: `["user[login]": "alice"]`.
    package static func stringToSign(_ parameters: [String: String]) -> String {
        parameters
            .filter { $0.key != "signature" }
            .map { "\($0.key)=\($0.value)" }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .joined(separator: "&")
    }

    /// Nil only when libcrypto cannot be loaded (`signingUnavailable` says why).
    package func signature(for parameters: [String: String]) -> String? {
        Self.hmacHex(algorithm: algorithm, key: secret, message: Self.stringToSign(parameters))
    }

    /// Whether libcrypto could be loaded (it is, on the first call).
    package static var canSign: Bool { ccrypto_load() == 0 }

    /// Why nothing can be signed: libcrypto (loaded on first use) is not there.
    package static var signingUnavailable: String {
        "cannot load libcrypto to sign the request (\(String(cString: ccrypto_load_error()))); is the libssl3 package installed?"
    }

    /// HMAC of `message` keyed with `key`, lowercase hex (libcrypto `HMAC()`, through
    /// CCryptoShim); nil when libcrypto cannot be loaded.
    package static func hmacHex(algorithm: SignatureAlgorithm, key: String, message: String) -> String? {
        let digest = switch algorithm {
        case .hmacSHA1: Int32(CCRYPTO_SHA1)
        case .hmacSHA256: Int32(CCRYPTO_SHA256)
        }
        var output = [UInt8](repeating: 0, count: Int(CCRYPTO_MAX_DIGEST))
        // An empty key still needs a valid pointer; its length stays 0.
        let keyLength = key.utf8.count
        let keyBytes = keyLength == 0 ? [0] : Array(key.utf8)
        let messageBytes = Array(message.utf8)
        let length = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    ccrypto_hmac(digest, keyBuffer.baseAddress, Int32(keyLength),
                                 messageBuffer.baseAddress, messageBuffer.count, outputBuffer.baseAddress)
                }
            }
        }
        if length < 0 {
            // HMAC itself fails only for want of memory; a missing library is the caller's to report.
            precondition(ccrypto_load() != 0, "HMAC() failed")
            return nil
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(Int(length) * 2)
        for byte in output.prefix(Int(length)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
