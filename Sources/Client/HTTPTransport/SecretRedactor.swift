/// Hides secrets in what `--verbose` prints: header values and query values whose
/// names mention a token, password, secret, signature or account key.
package enum SecretRedactor {
    package static let mask = "<redacted>"

    /// True for names such as `QB-Token`, `user[password]`, `signature`, `Authorization`, `QB-Account-Key`,
    /// and the `X-Amz-Credential` of a signed storage URL.
    package static func isSensitive(name: String) -> Bool {
        let lower = name.lowercased()
        // The expiry date of a token is not a secret and is useful when debugging.
        if lower.hasSuffix("expirationdate") { return false }
        return ["token", "password", "secret", "signature", "credential", "authorization", "cookie", "account-key", "account_key"]
            .contains { lower.contains($0) }
    }

    package static func header(_ header: HTTPHeader) -> HTTPHeader {
        isSensitive(name: header.name) ? HTTPHeader(header.name, mask) : header
    }

    /// The URL with the values of sensitive query parameters masked.
    package static func url(_ url: String) -> String {
        guard let q = url.firstIndex(of: "?") else { return url }
        let base = url[..<q]
        var query = url[url.index(after: q)...]
        var fragment = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = String(query[hash...])
            query = query[..<hash]
        }
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<eq])
            let decodedName = name.removingPercentEncodingLeniently()
            return isSensitive(name: decodedName) ? "\(name)=\(mask)" : String(pair)
        }
        return "\(base)?\(parts.joined(separator: "&"))\(fragment)"
    }

    /// The URL without query string or fragment (for errors, which never show queries).
    package static func urlWithoutQuery(_ url: String) -> String {
        if let cut = url.firstIndex(where: { $0 == "?" || $0 == "#" }) { return String(url[..<cut]) }
        return url
    }
}

extension String {
    /// Percent-decodes where possible, leaving malformed escapes as they are (as
    /// `decodeURIComponent` would, but never failing); `+` stays a `+`.
    package func removingPercentEncodingLeniently() -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
