import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This machine's own addresses, for tests that need a client outside loopback without a
/// second machine: a connection to or from one of them is local, yet its address is not
/// 127.0.0.0/8.
package enum LocalAddress {
    /// The first IPv4 address of an interface that is up and not loopback. Fails, never skips:
    /// a machine that can install packages has one.
    package static func nonLoopbackIPv4() throws -> String {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { throw TestSupportError("getifaddrs: \(String(cString: strerror(errno)))") }
        defer { freeifaddrs(list) }
        var next = list
        while let entry = next?.pointee {
            defer { next = entry.ifa_next }
            guard let address = entry.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  entry.ifa_flags & UInt32(IFF_UP) != 0, entry.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        throw TestSupportError("this machine has no IPv4 address outside loopback: the test needs one to play a client off loopback")
    }
}
