import Foundation
import Testing
@testable import XMPPTransport
import TestSupport

/// docs/protocol.md §7: a connect with a head start sets TCP and TLS up before it has
/// credentials, asks for them once the stream is secured, and ends at once when cancelled.
@Suite("Connecting with a head start", .serialized)
struct HeadStartTests {
    struct Fixture {
        let sandbox: SandboxProcess
        let credentials: ChatCredentials
        let endpoint: ChatEndpoint
        let caFile: String

        init() throws {
            sandbox = try SandboxProcess()
            let password = "head-start-1"
            let userId = try signUpUser(on: sandbox, login: "head" + String(UInt32.random(in: 0...UInt32.max), radix: 36), password: password)
            credentials = ChatCredentials(jid: "\(userId)-\(try #require(sandbox.config["appId"] as? Int))@localhost", password: password)
            endpoint = try #require(ChatEndpoint(parsing: sandbox.chatEndpoint))
            caFile = try #require(sandbox.config["caFile"] as? String)
        }
    }

    /// What one head-start connect did: its error (nil: connected), how often it asked for
    /// credentials, and the log lines written before the first ask and after it.
    struct Outcome: Sendable {
        var error: XMPPError?
        var asks: Int
        var before: [String]
        var after: [String]
        var seconds: Double
        /// When the connect returned, on its own thread (not when the awaiting task resumed).
        var endedAt: ContinuousClock.Instant
    }

    private func connect(_ f: Fixture, timeout: Double = 10, patience: Duration = .seconds(5),
                         cancellation: ChatConnectCancellation? = nil, endpoint: ChatEndpoint? = nil,
                         log: ResultBox<String> = ResultBox(),
                         answer: @escaping @Sendable () -> ChatCredentials?) async -> Outcome {
        let asked = ResultBox<Int>()
        let endpoint = endpoint ?? f.endpoint, caFile = f.caFile
        return await onOwnThread { () -> Outcome in
            let connection = XMPPConnection()
            connection.headStartPatience = patience
            let options = ChatConnectOptions(caFile: caFile, timeout: timeout, verboseLog: { log.append($0) })
            let start = ContinuousClock.now
            var error: XMPPError?
            do throws(XMPPError) {
                try connection.connect(domain: "localhost", endpoint: endpoint, options: options, cancellation: cancellation) {
                    asked.append(log.all.count)
                    return answer()
                }
                connection.disconnect(timeout: 2)
            } catch let failure {
                error = failure
            }
            let endedAt = ContinuousClock.now
            let elapsed = endedAt - start
            let lines = log.all, split = asked.all.first ?? lines.count
            return Outcome(error: error, asks: asked.all.count, before: Array(lines[..<split]), after: Array(lines[split...]),
                           seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                           endedAt: endedAt)
        }
    }

    @Test func credentialsAreAskedForOnceTheStreamIsSecuredAndNotBefore() async throws {
        let f = try Fixture()
        let credentials = f.credentials
        let outcome = await connect(f) { credentials }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.asks == 1)
        #expect(outcome.before.contains { $0.contains("proceeding with TLS") }, "TLS first:\n\(outcome.before.joined(separator: "\n"))")
        // Nothing sent with a name or a secret before the ask: no `from` in a stream header, no <auth/>.
        let sent = outcome.before.filter { $0.contains("conn: ") }
        #expect(!sent.contains { $0.contains("from=") || $0.contains("SASL") }, "sent before the ask:\n\(sent.joined(separator: "\n"))")
        #expect(outcome.after.contains { $0.contains("from=\"\(credentials.jid.split(separator: "/")[0])\"") })
        #expect(outcome.after.contains { $0.contains("chat: connected to \(f.endpoint) with STARTTLS") })
        #expect(!(outcome.before + outcome.after).contains { $0.contains(credentials.password) })
    }

    @Test func noCredentialsEndTheConnect() async throws {
        let f = try Fixture()
        let outcome = await connect(f) { nil }
        #expect(outcome.error?.kind == .disconnected, "\(String(describing: outcome.error))")
        #expect(outcome.error?.detail == "connect cancelled")
        #expect(outcome.asks == 1)
    }

    @Test func aHeadStartThatWaitedTooLongConnectsAfresh() async throws {
        let f = try Fixture()
        let credentials = f.credentials
        let outcome = await connect(f, patience: .milliseconds(100)) {
            Thread.sleep(forTimeInterval: 0.3)
            return credentials
        }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.asks == 1, "the fresh connect uses the credentials already given")
        #expect(outcome.after.contains { $0.contains("ended before logging in; connecting again") })
        #expect(outcome.after.contains { $0.contains("chat: connected to") })
    }

    @Test func cancellingWhileWaitingForCredentialsEndsItAtOnce() async throws {
        let f = try Fixture()
        let cancellation = ChatConnectCancellation()
        let outcome = await connect(f, cancellation: cancellation) {
            cancellation.cancel()  // as the login's other thread would, seeing its REST part fail
            return nil
        }
        #expect(outcome.error?.kind == .disconnected)
        #expect(outcome.seconds < 5)
    }

    /// libstrophe's TLS handshake waits for ever on a silent server: cancelling hangs up on it.
    @Test func cancellingDuringAStalledTLSHandshakeEndsItAtOnce() async throws {
        let f = try Fixture()
        let listener = try SilentListener(greeting: XMPPConnectionSocketTests.startTLSGreeting)
        defer { listener.close() }
        let cancellation = ChatConnectCancellation()
        let log = ResultBox<String>()
        // The cancel comes from a thread of its own, as the login's REST thread would: a task
        // blocking in a poll would hold one of the few threads the whole suite's tasks share.
        let cancelledAt = ResultBox<ContinuousClock.Instant>()
        Thread {
            // Once the handshake has begun (the listener then says nothing more).
            guard (try? waitUntil("the TLS handshake to begin", timeout: 30) { log.all.contains { $0.contains("proceeding with TLS") } }) != nil else { return }
            let now = ContinuousClock.now
            cancellation.cancel()
            cancelledAt.append(now)
        }.start()
        let outcome = await connect(f, timeout: 60, cancellation: cancellation,
                                    endpoint: ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: listener.port), log: log) { nil }
        let cancelled = try #require(cancelledAt.wait(timeout: 5).first, "the handshake never began: \(log.all.joined(separator: "\n"))")
        #expect(outcome.error?.kind == .disconnected, "\(String(describing: outcome.error))")
        // Both instants are taken on the threads that do the work, so the figure is the
        // connection's own; a cancel that did nothing would wait out the minute.
        #expect(outcome.endedAt - cancelled < .seconds(2), "cancelled, not timed out: ended \(outcome.endedAt - cancelled) after the cancel")
        #expect(outcome.seconds < 60, "ended before the connect's own timeout: took \(outcome.seconds) s")
        #expect(outcome.asks == 0, "never secured, never asked")
    }
}
