import Foundation
import Testing
import XMPPTransport

/// Failure paths against local sockets; no XMPP server needed.
@Suite("XMPPConnection socket failures", .serialized)
struct XMPPConnectionSocketTests {
    @Test func refusedPortIsCannotConnectQuickly() async throws {
        let port = try SilentListener.freePort()  // bound then closed: nothing listens
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
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []
    private var closed = false

    init() throws {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard sock >= 0 else { throw POSIXError(.EIO) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(sock, $0, len) == 0 && listen(sock, 8) == 0 && getsockname(sock, $0, &len) == 0
            }
        }
        guard ok else { Glibc.close(sock); throw POSIXError(.EADDRINUSE) }
        fd = sock
        port = Int(UInt16(bigEndian: addr.sin_port))
        let listenFD = sock
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listenFD, nil, nil)
                if client < 0 { return }
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
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
        for c in fds { Glibc.close(c) }
    }

    static func freePort() throws -> Int {
        let l = try SilentListener()
        let p = l.port
        l.close()
        return p
    }
}
