import Foundation
import Testing
import TestSupport
import SandboxNetwork
import SandboxLogging

/// The certificate the sandbox presents for STARTTLS.
@Suite("TLSIdentity")
struct TLSIdentityTests {
    @Test func selfSignedCertificateNamesTheGivenHosts() throws {
        let identity = try TLSIdentity.selfSigned(dnsNames: ["localhost", "chat.example"], ipAddresses: ["127.0.0.1", "::1"])
        #expect(identity.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let dir = try TemporaryDirectory(prefix: "xmpp-tls")
        let path = dir.file("cert.pem")
        try identity.certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        let text = try runProcess("/usr/bin/openssl", ["x509", "-in", path, "-noout", "-text"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("DNS:localhost"))
        #expect(text.stdout.contains("DNS:chat.example"))
        #expect(text.stdout.contains("IP Address:127.0.0.1"))
        #expect(text.stdout.contains("IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.stdout.contains("prime256v1"))
        // It verifies as its own trust anchor, for the names it carries.
        let verify = try runProcess("/usr/bin/openssl", ["verify", "-CAfile", path, "-verify_hostname", "chat.example", path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let wrongName = try runProcess("/usr/bin/openssl", ["verify", "-CAfile", path, "-verify_hostname", "other.example", path])
        #expect(wrongName.status != 0)
    }

    /// What the database keeps comes back as the same identity (through memory BIOs,
    /// whose bytes must outlive them: make sanitize checks that here).
    @Test func aKeptIdentityLoadsBackFromItsPEMText() throws {
        let identity = try TLSIdentity.selfSigned(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        let kept = try TLSIdentity.load(certificatePEM: identity.certificatePEM, keyPEM: try identity.privateKeyPEM())
        #expect(kept.certificatePEM == identity.certificatePEM)
        #expect(try kept.privateKeyPEM() == identity.privateKeyPEM())
        #expect(throws: (any Error).self) { try TLSIdentity.load(certificatePEM: "not PEM", keyPEM: try identity.privateKeyPEM()) }
        #expect(throws: (any Error).self) { try TLSIdentity.load(certificatePEM: identity.certificatePEM, keyPEM: "not PEM") }
    }

    @Test func loadsPEMFilesAndRejectsAMismatchedKey() throws {
        let dir = try TemporaryDirectory(prefix: "xmpp-tls")
        for name in ["a", "b"] {
            let made = try runProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name)",
                                                          "-days", "1", "-keyout", dir.file("\(name).key"), "-out", dir.file("\(name).pem")])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let loaded = try TLSIdentity.load(certificatePath: dir.file("a.pem"), keyPath: dir.file("a.key"))
        #expect(loaded.certificatePEM == (try String(contentsOfFile: dir.file("a.pem"), encoding: .utf8)))
        #expect(throws: SandboxFailure.self) { try TLSIdentity.load(certificatePath: dir.file("a.pem"), keyPath: dir.file("b.key")) }
        #expect(throws: SandboxFailure.self) { try TLSIdentity.load(certificatePath: dir.file("missing.pem"), keyPath: dir.file("a.key")) }
    }
}
