import Testing
import QuickBloxAPI

@Suite struct RequestSignerTests {
    /// The example string of docs/protocol.md §2; expected values from
    /// `printf '%s' "$S" | openssl dgst -sha1|-sha256 -hmac chatctl-test-secret`.
    static let docString = "application_id=22&auth_key=wJHd4cQSxpQGWx5&nonce=33432&timestamp=1326966962"
    static let secret = "chatctl-test-secret"

    @Test(arguments: [
        (SignatureAlgorithm.hmacSHA1, "f8b5dae4dc244c282cc78a6d13b025581e1dbac8"),
        (SignatureAlgorithm.hmacSHA256, "168ed12faa90a8e9e9c7ebcd63d7201720d920fcf31ddc9b14f430fc81d52228"),
    ])
    func knownAnswer(algorithm: SignatureAlgorithm, expected: String) {
        #expect(RequestSigner.hmacHex(algorithm: algorithm, key: Self.secret, message: Self.docString) == expected)
        let parameters = ["timestamp": "1326966962", "nonce": "33432", "auth_key": "wJHd4cQSxpQGWx5", "application_id": "22"]
        #expect(RequestSigner(secret: Self.secret, algorithm: algorithm).signature(for: parameters) == expected)
    }

    @Test func stringToSignSortsAndSkipsSignature() {
        let parameters = ["timestamp": "1326966962", "nonce": "33432", "auth_key": "wJHd4cQSxpQGWx5",
                          "application_id": "22", "signature": "ignored"]
        #expect(RequestSigner.stringToSign(parameters) == Self.docString)
    }

    @Test func userFieldsSortInWithRawValues() {
        let parameters = ["user[password]": "p@ss=w&rd", "user[login]": "alice", "timestamp": "1326966962",
                          "nonce": "33432", "auth_key": "wJHd4cQSxpQGWx5", "application_id": "22"]
        let expectedString = Self.docString + "&user[login]=alice&user[password]=p@ss=w&rd"
        #expect(RequestSigner.stringToSign(parameters) == expectedString)
        // printf '%s' "$expectedString" | openssl dgst -sha1 -hmac chatctl-test-secret
        #expect(RequestSigner(secret: Self.secret, algorithm: .hmacSHA1).signature(for: parameters)
                == "a353c8011f76828e75a8eab43df55b4ec70fe8ee")
    }

    @Test func emptyKeyIsAllowed() {
        // printf '%s' abc | openssl dgst -sha1 -hmac ''
        #expect(RequestSigner.hmacHex(algorithm: .hmacSHA1, key: "", message: "abc") == "9b4a918f398d74d3e367970aba3cbe54e4d2b5d9")
    }
}
