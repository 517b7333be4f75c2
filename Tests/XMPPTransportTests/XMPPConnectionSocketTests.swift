import Foundation
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

    @Test func silentServerTimesOutWithinTheLimit() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let endpoint = ChatEndpoint(security: .startTLS, host: "127.0.0.1", port: listener.port)
        let timeout = 1.5
        let (kind, elapsed) = await onOwnThread { () -> (XMPPError.Kind?, Double) in
            let connection = XMPPConnection()
            let start = ContinuousClock.now
            do throws(XMPPError) {
                try connection.connect(jid: "1-2@localhost", password: "pw", endpoint: endpoint, options: .init(timeout: timeout))
                return (nil, seconds(since: start))
            } catch {
                return (error.kind, seconds(since: start))
            }
        }
        #expect(kind == .timedOut)
        #expect(elapsed >= timeout - 0.05)
        #expect(elapsed < timeout + 0.75, "connect must return by its timeout, took \(elapsed) s")
        #expect(listener.acceptedCount >= 1, "the client did reach the listener")
    }
}

/// A TCP listener on 127.0.0.1 that accepts connections and never writes a byte.
final class SilentListener: @unchecked Sendable {
    private let listener: LoopbackListener
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var closed = false

    var port: Int { listener.port }

    init() throws {
        listener = try LoopbackListener()
        Thread.detachNewThread { [self, listener] in
            while true {
                let client = accept(listener.fd, nil, nil)
                if client < 0 { listener.close(); return }
                lock.lock()
                if closed { lock.unlock(); Glibc.close(client); return }
                accepted.append(client)
                lock.unlock()
            }
        }
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
