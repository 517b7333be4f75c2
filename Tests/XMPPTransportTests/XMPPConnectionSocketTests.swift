import Foundation
import Diagnostics
import Testing
import XMPPTransport
import TestSupport

/// Failure paths against local sockets; no XMPP server needed.
@Suite("XMPPConnection socket failures", .serialized)
struct XMPPConnectionSocketTests {
    @Test func refusedPortIsCannotConnectQuickly() async throws {
        let port = try LoopbackListener.freePort()  // bound then closed: nothing listens
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: port)
        let (kind, elapsed) = await onOwnThread { () -> (XMPPError.Kind?, Double) in
            let connection = XMPPConnection()
            let start = ContinuousClock.now
            do throws(XMPPError) {
                try connection.connect(jid: "1-2@localhost", password: "pw", endpoint: endpoint, options: .init(timeout: 10))
                return (nil, seconds(since: start))
            } catch {
                #expect(error.endpoint == "xmpp://127.0.0.1:\(port)")
                #expect(!connection.isConnected)
                return (error.kind, seconds(since: start))
            }
        }
        #expect(kind == .cannotConnect)
        #expect(elapsed < 3, "refusal should be immediate, took \(elapsed) s")
    }

    /// Connects on a thread of its own (after `prepareLibrary()` there when `prepared`); returns
    /// the failure (nil: connected) and the seconds it took.
    private func connect(_ endpoint: ChatEndpoint, timeout: Double, prepared: Bool = false) async -> (error: XMPPError?, elapsed: Double) {
        await onOwnThread { () -> (XMPPError?, Double) in
            if prepared { XMPPConnection.prepareLibrary() }
            let connection = XMPPConnection()
            let start = ContinuousClock.now
            do throws(XMPPError) {
                try connection.connect(jid: "1-2@localhost", password: "pw", endpoint: endpoint, options: .init(timeout: timeout))
                return (nil, seconds(since: start))
            } catch {
                #expect(!connection.isConnected)
                return (error, seconds(since: start))
            }
        }
    }

    @Test func silentServerTimesOutWithinTheLimit() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: listener.port)
        let timeout = 1.5
        let (error, elapsed) = await connect(endpoint, timeout: timeout)
        #expect(error?.kind == .timedOut)
        #expect(elapsed >= timeout - 0.05)
        #expect(elapsed < timeout + 0.75, "connect must return by its timeout, took \(elapsed) s")
        #expect(listener.acceptedCount >= 1, "the client did reach the listener")
    }
}

extension XMPPConnectionSocketTests {
    /// libstrophe's TLS handshake loops until the server answers: without the watchdog this
    /// test never returned. Both ways into TLS: from the first byte, and after `<proceed/>`.
    @Test(arguments: [ChatEndpoint.Security.directTLS, .startTLS])
    func aServerThatNeverFinishesTheTLSHandshakeTimesOutWithinTheLimit(security: ChatEndpoint.Security) async throws {
        let listener = try SilentListener(greeting: security == .startTLS ? Self.startTLSGreeting : nil)
        defer { listener.close() }
        let endpoint = ChatEndpoint(security: security, host: "127.0.0.1", port: listener.port)
        let timeout = 1.5
        let (error, elapsed) = await connect(endpoint, timeout: timeout)
        #expect(error?.kind == .timedOut)
        #expect(error?.detail.contains("TLS handshake not finished within 1.5 s") == true, "\(String(describing: error))")
        #expect(elapsed >= timeout - 0.05)
        #expect(elapsed < timeout + 0.75, "connect must return by its timeout, took \(elapsed) s")
    }

    /// The same, with the watchdog thread started ahead (`prepareLibrary()`, as `chatctl login`
    /// does before loading libcurl): the parked thread is the one that hangs up.
    @Test func aPreparedConnectStillTimesOutAStalledTLSHandshake() async throws {
        let listener = try SilentListener(greeting: Self.startTLSGreeting)
        defer { listener.close() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: listener.port)
        let timeout = 1.5
        let (error, elapsed) = await connect(endpoint, timeout: timeout, prepared: true)
        #expect(error?.kind == .timedOut)
        #expect(error?.detail.contains("TLS handshake not finished within 1.5 s") == true, "\(String(describing: error))")
        #expect(elapsed < timeout + 0.75, "connect must return by its timeout, took \(elapsed) s")
    }

    /// A server's opening and features offering STARTTLS, then `<proceed/>` to whatever comes.
    static let startTLSGreeting = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='s' from='localhost' version='1.0'><stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls></stream:features>"
}

/// A TCP listener on 127.0.0.1 that accepts connections and never writes a byte (or,
/// given a greeting, writes it and then answers anything with STARTTLS's `<proceed/>`).
final class SilentListener: @unchecked Sendable {
    private let listener: LoopbackListener
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var closed = false

    var port: Int { listener.port }

    init(greeting: String? = nil) throws {
        listener = try LoopbackListener()
        Thread.detachNewThread { [self, listener] in
            while true {
                let client = accept(listener.fd, nil, nil)
                if client < 0 { listener.close(); return }
                lock.lock()
                if closed { lock.unlock(); Glibc.close(client); return }
                accepted.append(client)
                lock.unlock()
                if let greeting { Self.greet(client, greeting) }
            }
        }
    }

    /// Sends `greeting` after the client's stream header, and `<proceed/>` after its next
    /// words (its `<starttls/>`); then falls silent, mid-handshake.
    private static func greet(_ client: Int32, _ greeting: String) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard recv(client, &buffer, buffer.count, 0) > 0 else { return }
        _ = Array(greeting.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard recv(client, &buffer, buffer.count, 0) > 0 else { return }
        let proceed = Array("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>".utf8)
        _ = proceed.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    var acceptedCount: Int { lock.lock(); defer { lock.unlock() }; return accepted.count }

    func close() {
        lock.lock()
        closed = true
        let fds = accepted
        accepted = []
        lock.unlock()
        listener.wake()
        for c in fds { Glibc.close(c) }
    }
}
