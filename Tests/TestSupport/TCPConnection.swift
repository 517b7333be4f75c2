import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection, closed when released: a client the test connects and writes
/// with on its own thread (so it knows both happened before it goes on), or one it accepted.
package final class TCPConnection {
    package let fd: Int32

    /// Takes ownership of a connected socket (from accept()).
    package init(adopting fd: Int32) { self.fd = fd }

    /// `source`: the local address to connect from (another loopback address, say 127.0.0.2,
    /// to play a second client machine); nil lets the kernel choose.
    package init(host: String, port: Int, source: String? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        do {
            if let source { try Self.call("bind", fd, source, port: 0, bind) }
            try Self.call("connect", fd, host, port: port, connect)
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
    }

    /// `bind` or `connect` on `fd` with the IPv4 address host:port.
    private static func call(_ name: String, _ fd: Int32, _ host: String, port: Int,
                             _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw TestSupportError("bad IPv4 address \(host)") }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw TestSupportError("\(name) \(host):\(port): \(String(cString: strerror(errno)))") }
    }

    /// Whether something accepts connections on host:port (connects, then hangs up).
    package static func canConnect(host: String = "127.0.0.1", port: Int) -> Bool {
        (try? TCPConnection(host: host, port: port)) != nil
    }

    /// Sends what it can; returns how many bytes went before the peer closed (it may close
    /// early, e.g. after a 413, and then what it said is still there to read).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            sent += n
        }
        return sent
    }

    /// Ends our direction of the stream (the peer reads end of file).
    package func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Whether the peer has closed (or reset) the connection; reads and drops anything it sent.
    package func isClosedByPeer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { continue }
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        }
    }

    /// Everything read until the peer closes or `timeout` passes; `closedByPeer` says which.
    package func readUntilClosed(timeout: Double) -> (data: [UInt8], closedByPeer: Bool) {
        var data: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return (data, false) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining, 0.5) * 1000) + 1)
            if ready < 0 && errno != EINTR { return (data, true) }
            if ready <= 0 { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (data, true) }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    deinit { Glibc.close(fd) }
}
