import Testing
@testable import SandboxServer
import TestSupport

/// The sandbox's PBKDF2-HMAC-SHA256 gives the bytes OpenSSL's does, so every hash stored
/// before it (and every one after) still checks.
@Suite struct PasswordHashTests {
    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 7914 §11, two blocks of output each.
    @Test(arguments: [
        ("passwd", "salt", 1, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"),
        ("Password", "NaCl", 80_000, "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"),
    ])
    func publishedVectors(password: String, salt: String, iterations: Int, expected: String) {
        #expect(Self.hex(PasswordHash.derive(password, salt: Array(salt.utf8), iterations: iterations, length: 64)) == expected)
    }

    @Test(arguments: [
        ("", 16, 1),
        ("bench-password-1", 16, 2),
        ("bench-password-1", 0, 10_000),
        (String(repeating: "k", count: 64), 16, 3),            // exactly one block of key
        (String(repeating: "long key ", count: 10), 100, 7),   // longer than a block: hashed first
        ("pässwörd-ünïcode", 16, 5),
    ])
    func sameBytesAsOpenSSL(password: String, saltLength: Int, iterations: Int) {
        let salt = (0..<saltLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in [PasswordHash.hashLength, 20, 33, 96] {
            let expected = ReferenceCrypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations, length: length)
            #expect(PasswordHash.derive(password, salt: salt, iterations: iterations, length: length) == expected,
                    "password of \(password.utf8.count) bytes, salt \(saltLength), \(iterations) rounds, \(length) bytes")
        }
    }

    @Test func aStoredHashChecksTheRightPasswordOnly() {
        let hash = PasswordHash(password: "right-pass-1", iterations: 1_000)
        #expect(hash.matches("right-pass-1"))
        #expect(!hash.matches("right-pass-2"))
        #expect(!hash.matches(""))
        let copy = PasswordHash(salt: hash.salt, iterations: hash.iterations, hash: hash.hash)
        #expect(copy.matches("right-pass-1"))
    }
}
