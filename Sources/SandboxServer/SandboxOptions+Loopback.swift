#if canImport(Glibc)
import Glibc
#endif

extension SandboxOptions {
    /// True when `host` reaches only this machine: `localhost`, 127.0.0.0/8, `::1` (or an
    /// IPv4-mapped 127 address). Anything else, a name included, may face a network.
    package var listensOnLoopbackOnly: Bool {
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        // ::ffff:127.x.y.z
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }
}
