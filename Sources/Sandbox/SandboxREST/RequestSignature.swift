// Verifies `POST /session.json` signatures (docs/protocol.md §2).
import SandboxCrypto

/// The string-to-sign and its HMAC check; pure apart from the HMAC call.
enum RequestSignature {

    /// Every parameter but `signature`, as raw `name=value`, sorted bytewise, joined with `&`.
    static func stringToSign(_ parameters: [(String, String)]) -> String {
        parameters
            .filter { $0.0 != "signature" }
            .map { Array("\($0.0)=\($0.1)".utf8) }
            .sorted { $0.lexicographicallyPrecedes($1) }
            .map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: "&")
    }

    /// True when `signature` (either algorithm, any hex case) signs `parameters` with `secret`.
    static func isValid(_ signature: String, parameters: [(String, String)], secret: String) -> Bool {
        guard let algorithm = HMACAlgorithm(hexLength: signature.utf8.count) else { return false }
        let expected = Array(algorithm.hexCode(secret: secret, message: stringToSign(parameters)).utf8)
        return ConstantTime.equal(expected, Array(signature.lowercased().utf8))
    }
}
