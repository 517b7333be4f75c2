import Foundation

/// A loopback listener that never accepts: tests use it to prove that no
/// connection was attempted (or to stand in for a server that says nothing).
public final class TCPListener: @unchecked Sendable {
    public let fd: Int32
    public let port: Int

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && listen(fd, 16) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard ok else { close(fd); throw TestSupportError("bind/listen failed") }
        self.fd = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Accepts (and closes) whatever connected so far; returns how many did.
    public func pendingConnections() -> Int {
        var count = 0
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { return count }
            close(c); count += 1
        }
    }

    deinit { close(fd) }
}
