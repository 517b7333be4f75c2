// The origins `--cors-origin` names (docs/protocol.md §10), as browsers spell them.

/// The web origins `--cors-origin` names; by default any (the sandbox listens on loopback).
package struct CORSOrigins: Sendable, Equatable {
    /// Normalised origins (`http://localhost:3000`, `null`); nil: any origin.
    private let named: Set<String>?

    package static let any = CORSOrigins(named: nil)

    private init(named: Set<String>?) { self.named = named }

    /// `--cors-origin` values: each `scheme://host[:port]` or `null`; `*` (or no value) allows any.
    package init(_ values: [String]) throws(CORSOriginError) {
        var named: Set<String> = []
        var any = values.isEmpty
        for value in values {
            guard let origin = CORSOrigins.normalized(value) else { throw CORSOriginError(value: value) }
            if origin == "*" { any = true } else { named.insert(origin) }
        }
        self.named = any ? nil : named
    }

    /// Whether any origin is allowed.
    package var allowsAny: Bool { named == nil }

    /// Whether a request whose `Origin` header is `origin` may read the answer.
    package func allows(_ origin: String) -> Bool {
        guard let named else { return true }
        return CORSOrigins.normalized(origin).map(named.contains) ?? false
    }

    /// The origins in a log line.
    package var summary: String { named.map { $0.sorted().joined(separator: " ") } ?? "any origin" }

    /// An origin as browsers serialise it: scheme and host lowercased, no default port;
    /// `null` for an opaque origin (`file://` taken as one); `*` kept. nil when not an origin.
    package static func normalized(_ text: String) -> String? {
        let lowered = text.lowercased()
        if lowered == "*" || lowered == "null" { return lowered }
        if lowered == "file://" { return "null" }
        guard let colon = lowered.firstIndex(of: ":"), lowered[colon...].hasPrefix("://") else { return nil }
        let scheme = lowered[..<colon], authority = lowered[lowered.index(colon, offsetBy: 3)...]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              !authority.isEmpty, !authority.contains(where: { "/?#@\\".contains($0) || $0 == " " || !$0.isASCII || $0.isWhitespace })
        else { return nil }
        // host, [v6], host:port or [v6]:port
        var host = authority, port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, host != "[]", !(host.first != "[" && host.contains(":")) else { return nil }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number) else { return nil }
            let isDefault = (number == 80 && (scheme == "http" || scheme == "ws")) || (number == 443 && (scheme == "https" || scheme == "wss"))
            return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
        }
        return "\(scheme)://\(host)"
    }
}

/// A `--cors-origin` value that is not an origin.
package struct CORSOriginError: Error, CustomStringConvertible {
    package var value: String
    package var description: String {
        "expects an origin such as http://localhost:3000 (scheme://host[:port], no path), null, or *; got '\(value)'"
    }
}
