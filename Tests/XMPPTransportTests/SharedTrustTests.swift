import Foundation
import Testing
@testable import XMPPTransport
import TestSupport

/// docs/protocol.md §7: a chat connection trusts its caFile alone (else the system's store),
/// parsed once per process and again only when the file changes, never by each of
/// libstrophe's TLS set-ups (CStropheTrust).
@Suite("Shared TLS trust", .serialized)
struct SharedTrustTests {
    @Test func theExecutableStandsInForLibsslsDefaultStore() {
        #expect(XMPPConnection.sharedTrustWorks,
                "SSL_CTX_set_default_verify_paths must be exported from the executable (Package.swift, CStropheTrust)")
    }

    @Test func aCAFileIsParsedOnceAndAgainOnlyWhenItChanges() async throws {
        let sandbox = try SandboxProcess()
        let other = try SandboxProcess()  // its CA did not sign the first one's certificate
        let directory = try TemporaryDirectory()
        let caFile = directory.file("ca.pem")
        try FileManager.default.copyItem(atPath: try #require(sandbox.config["caFile"] as? String), toPath: caFile)
        let password = "trust-pass-1"
        let userId = try signUpUser(on: sandbox, login: "trust" + String(UInt32.random(in: 0...UInt32.max), radix: 36), password: password)
        let jid = "\(userId)-\(try #require(sandbox.config["appId"] as? Int))@localhost"
        let endpoint = try #require(ChatEndpoint(parsing: sandbox.chatEndpoint))
        #expect(endpoint.security == .startTLS)

        let connect = { @Sendable () async -> XMPPError? in
            await onOwnThread { () -> XMPPError? in
                let connection = XMPPConnection()
                do throws(XMPPError) {
                    try connection.connect(jid: jid, password: password, endpoint: endpoint, options: .init(caFile: caFile, timeout: 10))
                    connection.disconnect(timeout: 2)
                    return nil
                } catch {
                    return error
                }
            }
        }
        #expect(await connect() == nil)
        #expect(await connect() == nil)
        let twice = XMPPConnection.trustStatistics(caFile: caFile)
        #expect(twice.loads == 1, "parsed once for both connections")
        #expect(twice.uses == 4, "STARTTLS sets TLS up twice per connection (a probe, then the handshake)")

        // Another CA in its place: parsed again, and it alone decides, so the server is refused.
        let replacement = directory.file("other.pem")
        try FileManager.default.copyItem(atPath: try #require(other.config["caFile"] as? String), toPath: replacement)
        #expect(rename(replacement, caFile) == 0)
        let refused = await connect()
        #expect(refused?.kind == .tlsFailed, "\(String(describing: refused))")
        #expect(refused?.detail.contains("certificate") == true, "\(String(describing: refused))")
        #expect(XMPPConnection.trustStatistics(caFile: caFile).loads == 2)
    }
}
