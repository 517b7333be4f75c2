// Cross-origin access for web apps (docs/protocol.md §10): the Access-Control-* headers
// that tell a browser which pages may read the sandbox's answers. A pure value that the
// REST server and the storage endpoint ask.

/// The Access-Control-* headers one HTTP service (the REST API, the storage endpoint) sends.
///
/// No `Access-Control-Allow-Credentials`: QuickBlox's web SDK sends its token in `QB-Token`
/// (or `?token=`), never in a cookie, so `*` can stand for any origin.
package struct CORSPolicy: Sendable, Equatable {
    /// What a browser's preflight (`OPTIONS`) gets: 204 and the allow headers, or 403 with why.
    package struct PreflightAnswer: Equatable {
        package var status: Int
        package var headers: [Header]
        /// Why it was refused (403), for the error body and the log.
        package var refusal: String?
    }

    /// One response header (a pair that compares, for tests).
    package struct Header: Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    var origins: CORSOrigins
    var methods: [String]
    var allowedHeaders: [String]
    var exposedHeaders: [String]
    /// Origins answered even when `origins` is restricted: the storage endpoint takes `null`,
    /// which a browser sends after the API's 301 to it, another origin (the fetch standard's
    /// tainted origin); the URL's signature, not the page, is what lets it in.
    var alsoAllowed: Set<String> = []

    /// How long a browser may keep a preflight's answer (seconds).
    package static let maxAge = 600

    /// The headers QuickBlox's SDKs send, and `Range`, which a download carries through the
    /// blob redirect to the storage.
    package static let requestHeaders = ["Content-Type", "QB-Token", "QB-SDK", "QB-OS", "QB-Account-Key", "QuickBlox-REST-API-Version", "Range"]

    /// The REST API: every method a route has, the session's expiry readable.
    package static func restAPI(_ origins: CORSOrigins) -> CORSPolicy {
        CORSPolicy(origins: origins, methods: ["GET", "POST", "PUT", "DELETE"], allowedHeaders: requestHeaders,
                   exposedHeaders: ["QB-Token-ExpirationDate"])
    }

    /// The storage endpoint: uploads, and downloads with ranges (reached through a redirect, hence `null`).
    package static func storage(_ origins: CORSOrigins) -> CORSPolicy {
        CORSPolicy(origins: origins, methods: ["GET", "HEAD", "POST"], allowedHeaders: requestHeaders,
                   exposedHeaders: ["Content-Range", "Accept-Ranges", "Content-Length"], alsoAllowed: ["null"])
    }

    /// The value of `Access-Control-Allow-Origin` for a request from `origin`, or nil: not for it.
    package func allowOrigin(for origin: String?) -> String? {
        if origins.allowsAny { return "*" }
        guard let origin else { return nil }
        if origins.allows(origin) { return origin }
        return CORSOrigins.normalized(origin).flatMap { alsoAllowed.contains($0) ? origin : nil }
    }

    /// The headers every answer but a preflight's carries (errors and redirects too).
    package func responseHeaders(origin: String?) -> [Header] {
        guard let allowed = allowOrigin(for: origin) else { return vary }
        return [Header("Access-Control-Allow-Origin", allowed)] + lists + vary
    }

    /// The answer to `OPTIONS` on any path (an unknown path's real request then gets a readable 404).
    /// An OPTIONS without an `Origin` is not a browser's: it is told the lists.
    /// `privateNetwork`: the request asked `Access-Control-Request-Private-Network: true`
    /// (Chromium's question before a public page reaches a loopback server).
    package func preflight(origin: String?, privateNetwork: Bool = false) -> PreflightAnswer {
        let allowed = allowOrigin(for: origin)
        if let origin, allowed == nil {
            return PreflightAnswer(status: 403, headers: vary,
                                       refusal: "Origin \(Self.printable(origin)) is not allowed (chatctl-sandbox --cors-origin)")
        }
        var headers = allowed.map { [Header("Access-Control-Allow-Origin", $0)] } ?? []
        headers += lists
        headers.append(Header("Access-Control-Max-Age", String(Self.maxAge)))
        if privateNetwork && allowed != nil { headers.append(Header("Access-Control-Allow-Private-Network", "true")) }
        return PreflightAnswer(status: 204, headers: headers + vary, refusal: nil)
    }

    private var lists: [Header] {
        [Header("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
         Header("Access-Control-Allow-Headers", allowedHeaders.joined(separator: ", ")),
         Header("Access-Control-Expose-Headers", exposedHeaders.joined(separator: ", "))]
    }

    /// A header value for a log line or an error: printable ASCII, the rest as `?`.
    package static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(200).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
    }

    /// Restricted, an answer depends on the request's Origin: caches must keep them apart.
    private var vary: [Header] { origins.allowsAny ? [] : [Header("Vary", "Origin")] }
}
