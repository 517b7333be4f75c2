// Cross-origin access for web apps (docs/protocol.md §10): which pages may read the
// sandbox's answers, and the Access-Control-* headers that tell a browser so. Pure
// values: the REST server, the storage endpoint and the WebSocket listener ask them.

/// The web origins `--cors-origin` names; by default any (the sandbox listens on loopback).
public struct CORSOrigins: Sendable, Equatable {
    /// Normalised origins (`http://localhost:3000`, `null`); nil: any origin.
    let named: Set<String>?

    public static let any = CORSOrigins(named: nil)

    private init(named: Set<String>?) { self.named = named }

    /// `--cors-origin` values: each `scheme://host[:port]` or `null`; `*` (or no value) allows any.
    public init(_ values: [String]) throws(CORSOriginError) {
        var named: Set<String> = []
        var any = values.isEmpty
        for value in values {
            guard let origin = CORSOrigins.normalized(value) else { throw CORSOriginError(value: value) }
            if origin == "*" { any = true } else { named.insert(origin) }
        }
        self.named = any ? nil : named
    }

    /// Whether any origin is allowed.
    public var allowsAny: Bool { named == nil }

    /// Whether a request whose `Origin` header is `origin` may read the answer.
    func allows(_ origin: String) -> Bool {
        guard let named else { return true }
        return CORSOrigins.normalized(origin).map(named.contains) ?? false
    }

    /// The origins in a log line.
    public var summary: String { named.map { $0.sorted().joined(separator: " ") } ?? "any origin" }

    /// An origin as browsers serialise it: scheme and host lowercased, no default port;
    /// `null` for an opaque origin (`file://` taken as one); `*` kept. nil when not an origin.
    static func normalized(_ text: String) -> String? {
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
public struct CORSOriginError: Error, CustomStringConvertible {
    public var value: String
    public var description: String {
        "expects an origin such as http://localhost:3000 (scheme://host[:port], no path), null, or *; got '\(value)'"
    }
}

/// What a browser's preflight (`OPTIONS`) gets: 204 and the allow headers, or 403 with why.
struct CORSPreflightAnswer: Equatable {
    var status: Int
    var headers: [CORSHeader]
    /// Why it was refused (403), for the error body and the log.
    var refusal: String?
}

/// One response header (a pair that compares, for tests).
struct CORSHeader: Equatable {
    var name: String
    var value: String
    init(_ name: String, _ value: String) { self.name = name; self.value = value }
}

/// The Access-Control-* headers one HTTP service (the REST API, the storage endpoint) sends.
///
/// No `Access-Control-Allow-Credentials`: QuickBlox's web SDK sends its token in `QB-Token`
/// (or `?token=`), never in a cookie, so `*` can stand for any origin.
struct CORSPolicy: Sendable, Equatable {
    var origins: CORSOrigins
    var methods: [String]
    var allowedHeaders: [String]
    var exposedHeaders: [String]
    /// Origins answered even when `origins` is restricted: the storage endpoint takes `null`,
    /// which a browser sends after the API's 301 to it, another origin (the fetch standard's
    /// tainted origin); the URL's signature, not the page, is what lets it in.
    var alsoAllowed: Set<String> = []

    /// How long a browser may keep a preflight's answer (seconds).
    static let maxAge = 600

    /// The headers QuickBlox's SDKs send, and `Range`, which a download carries through the
    /// blob redirect to the storage.
    static let requestHeaders = ["Content-Type", "QB-Token", "QB-SDK", "QB-OS", "QB-Account-Key", "QuickBlox-REST-API-Version", "Range"]

    /// The REST API: every method a route has, the session's expiry readable.
    static func restAPI(_ origins: CORSOrigins) -> CORSPolicy {
        CORSPolicy(origins: origins, methods: ["GET", "POST", "PUT", "DELETE"], allowedHeaders: requestHeaders,
                   exposedHeaders: ["QB-Token-ExpirationDate"])
    }

    /// The storage endpoint: uploads, and downloads with ranges (reached through a redirect, hence `null`).
    static func storage(_ origins: CORSOrigins) -> CORSPolicy {
        CORSPolicy(origins: origins, methods: ["GET", "HEAD", "POST"], allowedHeaders: requestHeaders,
                   exposedHeaders: ["Content-Range", "Accept-Ranges", "Content-Length"], alsoAllowed: ["null"])
    }

    /// The value of `Access-Control-Allow-Origin` for a request from `origin`, or nil: not for it.
    func allowOrigin(for origin: String?) -> String? {
        if origins.allowsAny { return "*" }
        guard let origin else { return nil }
        if origins.allows(origin) { return origin }
        return CORSOrigins.normalized(origin).flatMap { alsoAllowed.contains($0) ? origin : nil }
    }

    /// The headers every answer but a preflight's carries (errors and redirects too).
    func responseHeaders(origin: String?) -> [CORSHeader] {
        guard let allowed = allowOrigin(for: origin) else { return vary }
        return [CORSHeader("Access-Control-Allow-Origin", allowed)] + lists + vary
    }

    /// The answer to `OPTIONS` on any path (an unknown path's real request then gets a readable 404).
    /// An OPTIONS without an `Origin` is not a browser's: it is told the lists.
    /// `privateNetwork`: the request asked `Access-Control-Request-Private-Network: true`
    /// (Chromium's question before a public page reaches a loopback server).
    func preflight(origin: String?, privateNetwork: Bool = false) -> CORSPreflightAnswer {
        let allowed = allowOrigin(for: origin)
        if let origin, allowed == nil {
            return CORSPreflightAnswer(status: 403, headers: vary,
                                       refusal: "Origin \(Self.printable(origin)) is not allowed (chatctl-sandbox --cors-origin)")
        }
        var headers = allowed.map { [CORSHeader("Access-Control-Allow-Origin", $0)] } ?? []
        headers += lists
        headers.append(CORSHeader("Access-Control-Max-Age", String(Self.maxAge)))
        if privateNetwork && allowed != nil { headers.append(CORSHeader("Access-Control-Allow-Private-Network", "true")) }
        return CORSPreflightAnswer(status: 204, headers: headers + vary, refusal: nil)
    }

    private var lists: [CORSHeader] {
        [CORSHeader("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
         CORSHeader("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", ")),
         CORSHeader("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", "))]
    }

    /// A header value for a log line or an error: printable ASCII, the rest as `?`.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(200).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
    }

    /// Restricted, an answer depends on the request's Origin: caches must keep them apart.
    private var vary: [CORSHeader] { origins.allowsAny ? [] : [CORSHeader("Vary", "Origin")] }
}
