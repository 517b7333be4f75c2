/// Just enough URL parsing to know the scheme and whether the host is loopback.
struct EndpointURL {
    var scheme: String
    var host: String
    init?(_ text: String) {
        guard let sep = text.firstRange(of: "://") else { return nil }
        scheme = text[..<sep.lowerBound].lowercased()
        var rest = text[sep.upperBound...]
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
        } else {
            host = String(rest.split(separator: ":", maxSplits: 1).first ?? "")
        }
        if host.isEmpty { return nil }
    }
    var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }
}
