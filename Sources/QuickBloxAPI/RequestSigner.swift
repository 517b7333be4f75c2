internal import CCrypto

/// Signs `POST /session.json` (docs/protocol.md §2): every parameter except
/// `signature` as `name=value` with the raw value, sorted bytewise, joined by `&`,
/// HMAC'd with the application's `auth_secret`, as lowercase hex.
public struct RequestSigner: Sendable {
    public var secret: String
    public var algorithm: SignatureAlgorithm

    public init(secret: String, algorithm: SignatureAlgorithm) {
        self.secret = secret; self.algorithm = algorithm
    }

    /// Nested fields are passed flat: `["user[login]": "alice"]`.
    public static func stringToSign(_ parameters: [String: String]) -> String {
        parameters
            .filter { $0.key != "signature" }
            .map { "\($0.key)=\($0.value)" }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .joined(separator: "&")
    }

    public func signature(for parameters: [String: String]) -> String {
        Self.hmacHex(algorithm: algorithm, key: secret, message: Self.stringToSign(parameters))
    }

    /// HMAC of `message` keyed with `key`, lowercase hex (wraps libcrypto `HMAC()`).
    public static func hmacHex(algorithm: SignatureAlgorithm, key: String, message: String) -> String {
        let digest = switch algorithm {
        case .hmacSHA1: EVP_sha1()
        case .hmacSHA256: EVP_sha256()
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var outputLength: UInt32 = 0
        // An empty key still needs a valid pointer; its length stays 0.
        let keyLength = key.utf8.count
        let keyBytes = keyLength == 0 ? [0] : Array(key.utf8)
        let messageBytes = Array(message.utf8)
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    HMAC(digest, keyBuffer.baseAddress, Int32(keyLength),
                         messageBuffer.baseAddress, messageBuffer.count, outputBuffer.baseAddress, &outputLength)
                }
            }
        }
        precondition(result != nil, "HMAC() failed")
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(Int(outputLength) * 2)
        for byte in output.prefix(Int(outputLength)) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
