#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTransport

/// Where a new blob's file goes: `blob_object_access.params`, a whole URL whose
/// query pairs are the form fields of the upload (docs/protocol.md §8). Current
/// accounts name the API host and lower-case fields (`key`, `policy`,
/// `x-amz-signature`…); older ones an S3 bucket and `AWSAccessKeyId`, `Policy`,
/// `Signature`, `Content-Type`…: both are read the same way, as the JavaScript
/// SDK does (each value URL-decoded, `+` kept: policies are base64).
package struct QBBlobUploadTicket: Sendable, Equatable {
    /// Scheme, host and path of `params`: where the form is POSTed.
    package var url: String
    /// Every query pair, decoded, in URL order.
    package var fields: [MultipartUploadRequest.Field]
    /// When the permission ends, if the server said.
    package var expires: Date?

    /// Scheme, host and port of `url`.
    package var origin: URLOrigin

    /// Nil unless `url` is an http(s) URL.
    package init?(url: String, fields: [MultipartUploadRequest.Field], expires: Date? = nil) {
        guard let origin = URLOrigin(url) else { return nil }
        self.url = url; self.fields = fields; self.expires = expires; self.origin = origin
    }

    /// Nil unless `params` is an http(s) URL with a host.
    package init?(params: String, expires: Date? = nil) {
        let text = params.trimmingScalars(" \t\r\n")
        var base = Substring(text)
        var query: Substring = ""
        if let hash = base.firstIndex(of: "#") { base = base[..<hash] }
        if let mark = base.firstIndex(of: "?") {
            query = base[base.index(after: mark)...]
            base = base[..<mark]
        }
        guard let origin = URLOrigin(String(base)), !origin.host.isEmpty else { return nil }
        self.origin = origin
        var fields: [MultipartUploadRequest.Field] = []
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncodingLeniently()
            guard !name.isEmpty else { continue }
            fields.append(.init(name, parts.count > 1 ? String(parts[1]).removingPercentEncodingLeniently() : ""))
        }
        self.url = String(base)
        self.fields = fields
        self.expires = expires
    }

    /// The largest file the policy admits: the top of its `content-length-range`
    /// condition (`["content-length-range", 0, 104857600]`), read from the `policy`
    /// field (base64 JSON, as S3 has it); nil when it names none or cannot be read.
    package var maximumSize: Int64? {
        guard let encoded = field("policy"), let data = Data(base64Encoded: encoded),
              let policy = try? JSONValue(parsing: Array(data)),
              case .array(let conditions)? = policy["conditions"] else { return nil }
        for condition in conditions {
            guard case .array(let parts) = condition, parts.count == 3,
                  parts[0].stringValue?.lowercased() == "content-length-range", let top = parts[2].looseInt else { continue }
            return Int64(top)
        }
        return nil
    }

    /// The value of the first field named `name` (ASCII case ignored: `key` or `Key`).
    package func field(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }
}
