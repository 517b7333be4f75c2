// Where the sandbox's TCP listeners bind, and which port they got.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif
import SandboxLogging

/// One resolved address to listen on (getaddrinfo's first answer, copied out).
package struct ListeningAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 { Int32(storage.ss_family) }
    /// The port asked for (0: any).
    let port: Int

    /// `host` (a name or a numeric address; empty: any) and `port` for a passive TCP socket.
    /// Throws getaddrinfo's reason as text.
    package init(host: String, port: Int) throws(SandboxFailure) {
        self.port = port
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = sandbox_sock_stream
        var found: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &found)
        guard status == 0, let address = found, let socketAddress = address.pointee.ai_addr else {
            throw SandboxFailure(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(found) }
        length = min(address.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: socketAddress, count: Int(length))) }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        try withUnsafePointer(to: storage) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) } }
    }

    /// A new non-blocking, close-on-exec TCP socket of the address's family; -1 on failure.
    func makeSocket() -> Int32 {
        let fd = socket(family, sandbox_sock_stream, 0)
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// The local port a bound socket got (what asking for port 0 picked).
    static func boundPort(of fd: Int32) -> Int? {
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        } == 0
        guard ok else { return nil }
        switch Int32(bound.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) } }
        case AF_INET6:
            return withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) } }
        default:
            return nil
        }
    }

    /// A non-blocking listening socket on `host`:`port` for a server that runs outside the loop
    /// (the storage endpoint's libmicrohttpd), which then owns it, and the port it got. Errors
    /// name `service`.
    package static func listeningSocket(for service: String, host: String, port: Int) throws(SandboxFailure) -> (descriptor: Int32, port: Int) {
        let address: ListeningAddress
        do { address = try ListeningAddress(host: host, port: port) } catch {
            throw SandboxFailure("cannot resolve the \(service) host \(host): \(error)")
        }
        let fd = address.makeSocket()
        guard fd >= 0 else { throw SandboxFailure("cannot create the \(service) socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard address.withSocketAddress({ bind(fd, $0, $1) }) == 0, Glibc.listen(fd, 128) == 0,
              let bound = ListeningAddress.boundPort(of: fd) else {
            let code = errno
            Glibc.close(fd)
            throw .cannotListen(for: service, host: host, port: port, code: code)
        }
        return (fd, bound)
    }
}
