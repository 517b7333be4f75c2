import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket on 127.0.0.1 at a port the kernel picked. Listening, handshakes complete but
/// nobody answers until a test thread accepts; not listening, connecting is refused.
package final class LoopbackListener: Sendable {
    package let fd: Int32
    package let port: Int
    private let closed = Mutex(false)

    package init(listening: Bool = true) throws {
        (fd, port) = try Self.bind(listening: listening)
    }

    /// A port nothing listens on (bound, then closed again).
    package static func freePort(avoiding other: Int? = nil) throws -> Int {
        for _ in 0..<10 {
            let (fd, port) = try bind(listening: false)
            Glibc.close(fd)
            if port != other { return port }
        }
        throw TestSupportError("no free loopback port")
    }

    /// Accepts (and closes) whatever connected so far, without blocking; returns how many did.
    package func pendingConnections() -> Int {
        var count = 0
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return count }
            let connection = accept(fd, nil, nil)
            if connection < 0 { return count }
            Glibc.close(connection)
            count += 1
        }
    }

    /// Wakes a thread blocked in accept() (which then fails); that thread should `close()`.
    package func wake() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Closes the socket once, whoever asks first. Closing under a blocked accept() would let
    /// the fd number be reused by the next test's socket: `wake()` that thread instead.
    package func close() {
        closed.withLock { done in
            guard !done else { return }
            done = true
            shutdown(fd, Int32(SHUT_RDWR))
            Glibc.close(fd)
        }
    }

    deinit { close() }

    private static func bind(listening: Bool) throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                Glibc.bind(fd, sa, length) == 0 && (!listening || listen(fd, 16) == 0) && getsockname(fd, sa, &length) == 0
            }
        }
        guard ok else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TestSupportError("bind/listen on 127.0.0.1:0: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
