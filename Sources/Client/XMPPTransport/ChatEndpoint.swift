#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `xmpps://host:port` (TLS from the first byte, default 5223) or
/// `xmpp://host:port` (STARTTLS, default 5222).
package struct ChatEndpoint: Sendable, Equatable, CustomStringConvertible {
    package enum Security: Sendable, Equatable { case directTLS, startTLS }
    package var security: Security
    package var host: String
    package var port: Int
    package init(security: Security, host: String, port: Int) { self.security = security; self.host = host; self.port = port }

    package static let defaultStartTLSPort = 5222
    package static let defaultDirectTLSPort = 5223

    /// Parses the config form; nil when it is not an xmpp:// or xmpps:// URL.
    /// Accepts `[v6]` hosts, an optional port (1...65535) and an optional trailing `/`.
    package init?(parsing text: String) {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        let security: Security
        let rest: Substring
        if let range = trimmed.firstRange(of: "://") {
            switch trimmed[..<range.lowerBound].lowercased() {
            case "xmpp": security = .startTLS
            case "xmpps": security = .directTLS
            default: return nil
            }
            rest = trimmed[range.upperBound...]
        } else {
            return nil
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        // No path, query, user info or fragment: an endpoint is only host and port.
        if authority.contains(where: { "/?#@ \t".contains($0) }) { return nil }

        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }  // a bare IPv6 address needs brackets
            host = parts[0]
            if parts.count == 2 { portText = parts[1] }
            guard host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }) else { return nil }
        }
        guard !host.isEmpty else { return nil }

        let port: Int
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portText), (1...65535).contains(value) else { return nil }
            port = value
        } else {
            port = security == .directTLS ? Self.defaultDirectTLSPort : Self.defaultStartTLSPort
        }
        self.init(security: security, host: String(host), port: port)
    }

    package var description: String {
        let scheme = security == .directTLS ? "xmpps" : "xmpp"
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(hostPart):\(port)"
    }

    /// 127.0.0.0/8, ::1 (any spelling) and `localhost`: where plaintext may be acceptable.
    package var isLoopback: Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4 {
            let values = octets.map { $0.count <= 3 && $0.allSatisfy(\.isASCII) ? UInt8($0) : nil }
            if values.allSatisfy({ $0 != nil }) { return values[0] == 127 }
            return false
        }
        return Self.isIPv6Loopback(name)
    }

    /// ::1 written any legal way (`0:0:0:0:0:0:0:1`, `::0:1`).
    static func isIPv6Loopback(_ text: String) -> Bool {
        guard text.contains(":") else { return false }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return false }
        func groups(_ s: String) -> [Substring]? {
            s.isEmpty ? [] : s.split(separator: ":", omittingEmptySubsequences: false)
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return false }
        // IPv4-mapped addresses are not treated as loopback: rare, and erring strict is safe.
        guard !text.contains(".") else { return false }
        var values: [UInt16] = []
        for g in head + tail {
            guard (1...4).contains(g.count), let v = UInt16(g, radix: 16) else { return false }
            values.append(v)
        }
        if halves.count == 2 {
            guard values.count < 8 else { return false }
            values = Array(values[..<head.count]) + Array(repeating: 0, count: 8 - values.count) + Array(values[head.count...])
        }
        guard values.count == 8 else { return false }
        return values.dropLast().allSatisfy { $0 == 0 } && values[7] == 1
    }
}
