/// Scheme, host and port of an http(s) URL: what decides whether a request goes
/// to the API host (which may see the session token) or somewhere else.
package struct URLOrigin: Sendable, Equatable, CustomStringConvertible {
    package var scheme: String
    /// Lower-cased; an IPv6 literal keeps its brackets.
    package var host: String
    package var port: Int

    /// Nil for anything but an http or https URL.
    package init?(_ url: String) {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = url[schemeEnd.upperBound...]
        if let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<end] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port = scheme == "https" ? 443 : 80
        let closing = authority.lastIndex(of: "]")
        if let colon = authority.lastIndex(of: ":"), closing.map({ colon > $0 }) ?? true {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            if !digits.isEmpty {
                guard let number = Int(digits), (1...65535).contains(number) else { return nil }
                port = number
            }
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    package var description: String { "\(scheme)://\(host):\(port)" }
}
