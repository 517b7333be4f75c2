import Foundation
import Testing
import TestSupport
import XMPPTransport

/// XMPPConnection against a real Prosody (docs/interop-testing.md). Users are
/// named like QuickBlox chat users: `{userId}-{appId}@{chatDomain}`.
@Suite("XMPPConnection against Prosody", .serialized)
struct ProsodyChatConnectTests {
    static let user = (name: "1001-77", password: "correct horse 1001")

    static func startServer(_ security: ProsodyServer.Security = .tls) throws -> ProsodyServer {
        // Fails (never skips) when prosody is missing; the message says `make test` installs it.
        try ProsodyServer(security: security, users: [user])
    }

    @Test func startTLSWithCAFileConnectsEnablesSMAndPings() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let jid = "\(Self.user.name)@\(server.domain)"
        let lines = ResultBox<String>()
        let options = ChatConnectOptions(caFile: server.caFile, timeout: 10, verboseLog: { lines.append($0) })
        let report = await onOwnThread { () -> Result<ConnectReport, XMPPError> in
            let connection = XMPPConnection()
            do throws(XMPPError) {
                try connection.connect(jid: jid, password: Self.user.password, endpoint: endpoint, options: options)
                let bound = connection.boundJID
                // Already connected: a second connect returns without error.
                try connection.connect(jid: jid, password: Self.user.password, endpoint: endpoint, options: options)
                let rtt = try connection.ping(timeout: 5)
                let acked = try connection.waitForAcknowledgement(timeout: 5)
                let sm = connection.streamManagement
                let carbons = connection.carbons
                let wasConnected = connection.isConnected
                let start = ContinuousClock.now
                connection.disconnect(timeout: 2)
                return .success(ConnectReport(boundJID: bound, rtt: rtt, acked: acked, smStatus: sm.status, smSent: sm.sentCount,
                                              smAcked: sm.acknowledgedCount, carbons: carbons, wasConnected: wasConnected,
                                              connectedAfterDisconnect: connection.isConnected,
                                              disconnectSeconds: seconds(since: start)))
            } catch {
                return .failure(error)
            }
        }
        let r = try report.get()
        #expect(r.wasConnected)
        #expect(r.boundJID?.hasPrefix("\(jid)/") == true, "bound JID \(String(describing: r.boundJID))")
        #expect(r.rtt > 0 && r.rtt < 5)
        #expect(r.smStatus == .enabled, "Prosody's mod_smacks answers <enable/>")
        #expect(r.smSent == 3, "the carbons request, initial presence and ping were counted")
        #expect(r.acked == 3 && r.smAcked == 3, "the server acknowledged all three; log:\n\(lines.all.joined(separator: "\n"))")
        #expect(r.carbons == .enabled, "Prosody's mod_carbons said yes before the ping's answer")
        #expect(!r.connectedAfterDisconnect)
        #expect(r.disconnectSeconds < 2.5)
    }

    @Test func directTLSWithCAFileConnects() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let port = try #require(server.directTLSPort)
        let endpoint = try #require(ChatEndpoint(parsing: "xmpps://127.0.0.1:\(port)"))
        let jid = "\(Self.user.name)@\(server.domain)"
        let outcome = await connectOnce(jid: jid, password: Self.user.password, endpoint: endpoint,
                                        options: ChatConnectOptions(caFile: server.caFile, timeout: 10))
        #expect(outcome == nil, "connect failed: \(String(describing: outcome))")
    }

    @Test func wrongPasswordIsNotAuthorized() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let outcome = await connectOnce(jid: "\(Self.user.name)@\(server.domain)", password: "wrong password",
                                        endpoint: endpoint, options: ChatConnectOptions(caFile: server.caFile, timeout: 10))
        #expect(outcome?.kind == .notAuthorized, "got \(String(describing: outcome))")
    }

    @Test func selfSignedCertificateWithoutCAFileIsTLSFailed() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let outcome = await connectOnce(jid: "\(Self.user.name)@\(server.domain)", password: Self.user.password,
                                        endpoint: endpoint, options: ChatConnectOptions(timeout: 10))
        #expect(outcome?.kind == .tlsFailed, "got \(String(describing: outcome))")
        #expect(outcome?.detail.contains("certificate verification failed") == true, "got \(String(describing: outcome?.detail))")
        #expect(outcome?.detail.contains("SELF_SIGNED") == true)
    }

    @Test func serverWithoutTLSIsRefusedUnlessPlaintextAllowed() async throws {
        let server = try Self.startServer(.plaintextOnly)
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let jid = "\(Self.user.name)@\(server.domain)"
        let refused = await connectOnce(jid: jid, password: Self.user.password, endpoint: endpoint,
                                        options: ChatConnectOptions(timeout: 10))
        #expect(refused?.kind == .plaintextRefused, "got \(String(describing: refused))")
        let allowed = await connectOnce(jid: jid, password: Self.user.password, endpoint: endpoint,
                                        options: ChatConnectOptions(allowPlaintext: true, timeout: 10))
        #expect(allowed == nil, "got \(String(describing: allowed))")
    }

    /// A head start (docs/protocol.md §7) is TLS-only until it has credentials: against a
    /// server without TLS it gives up before logging in, and connects again in plain text only
    /// where that is allowed.
    @Test func aHeadStartToAServerWithoutTLSConnectsAgainOnlyIfPlaintextIsAllowed() async throws {
        let server = try Self.startServer(.plaintextOnly)
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let credentials = ChatCredentials(jid: "\(Self.user.name)@\(server.domain)", password: Self.user.password)
        let domain = server.domain
        func headStart(_ options: ChatConnectOptions) async -> (error: XMPPError?, log: [String]) {
            let lines = ResultBox<String>()
            var options = options
            options.verboseLog = { lines.append($0) }
            let error = await onOwnThread { [options] () -> XMPPError? in
                let connection = XMPPConnection()
                do throws(XMPPError) {
                    try connection.connect(domain: domain, endpoint: endpoint, options: options) { credentials }
                    connection.disconnect(timeout: 2)
                    return nil
                } catch {
                    return error
                }
            }
            return (error, lines.all)
        }
        let refused = await headStart(ChatConnectOptions(timeout: 10))
        #expect(refused.error?.kind == .plaintextRefused, "got \(String(describing: refused.error))")
        let allowed = await headStart(ChatConnectOptions(allowPlaintext: true, timeout: 10))
        #expect(allowed.error == nil, "got \(String(describing: allowed.error))\n\(allowed.log.joined(separator: "\n"))")
        #expect(allowed.log.contains { $0.contains("ended before logging in; connecting again") })
        #expect(allowed.log.contains { $0.contains("no TLS (allowed for this host)") })
    }

    @Test func verboseLogNeverCarriesThePassword() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let jid = "\(Self.user.name)@\(server.domain)"
        let lines = ResultBox<String>()
        let outcome = await connectOnce(jid: jid, password: Self.user.password, endpoint: endpoint,
                                        options: ChatConnectOptions(caFile: server.caFile, timeout: 10,
                                                                    verboseLog: { lines.append($0) }))
        let all = lines.all
        #expect(all.contains { $0.contains("SASL PLAIN auth successful") }, "the PLAIN path (base64 password on the wire) was exercised")
        #expect(outcome == nil, "\(String(describing: outcome)); log:\n\(all.joined(separator: "\n"))\nprosody:\n\(server.logText)")
        #expect(all.contains { $0.contains("<presence") }, "debug lines do reach --verbose")
        let plainPayload = Data("\0\(jid)\0\(Self.user.password)".utf8).base64EncodedString()
        let userOnlyPayload = Data("\0\(Self.user.name)\0\(Self.user.password)".utf8).base64EncodedString()
        for line in all {
            #expect(!line.contains(Self.user.password))
            #expect(!line.contains(plainPayload) && !line.contains(userOnlyPayload))
            #expect(!line.contains("mechanism="))
        }
    }

    @Test func droppingALiveConnectionClosesItWithoutCrashing() async throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: server.port)
        let jid = "\(Self.user.name)@\(server.domain)"
        let options = ChatConnectOptions(caFile: server.caFile, timeout: 10)
        let connected = await onOwnThread { () -> Bool in
            var connection: XMPPConnection? = XMPPConnection()
            do throws(XMPPError) {
                try connection?.connect(jid: jid, password: Self.user.password, endpoint: endpoint, options: options)
            } catch {
                return false
            }
            let wasConnected = connection?.isConnected ?? false
            connection = nil  // deinit releases a live xmpp_conn_t; its handler must not reach self
            return wasConnected
        }
        #expect(connected)
        // A fresh connection still works afterwards (the library state is intact).
        #expect(await connectOnce(jid: jid, password: Self.user.password, endpoint: endpoint, options: options) == nil)
    }

    // MARK: helpers

    struct ConnectReport: Sendable {
        var boundJID: String?
        var rtt: Double
        var acked: UInt32
        var smStatus: StreamManagementLedger.Status
        var smSent: UInt32
        var smAcked: UInt32
        var carbons: ChatSessionState.Carbons
        var wasConnected: Bool
        var connectedAfterDisconnect: Bool
        var disconnectSeconds: Double
    }

    /// Connects on its own thread, disconnects, and returns the error if any.
    func connectOnce(jid: String, password: String, endpoint: ChatEndpoint, options: ChatConnectOptions) async -> XMPPError? {
        await onOwnThread { () -> XMPPError? in
            let connection = XMPPConnection()
            do throws(XMPPError) {
                try connection.connect(jid: jid, password: password, endpoint: endpoint, options: options)
                guard connection.isConnected else {
                    return XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "connect returned but not connected")
                }
                connection.disconnect(timeout: 2)
                return nil
            } catch {
                return error
            }
        }
    }
}
