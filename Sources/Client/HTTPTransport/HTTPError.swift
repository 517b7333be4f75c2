/// Why an HTTP exchange produced no response. Never carries a query string,
/// a header value or a body (those may hold tokens or passwords).
package struct HTTPError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case cannotConnect, timedOut, tls, invalidURL, other
        /// A local file of a transfer could not be read or written (disk full, say);
        /// `detail` names it and says why.
        case localFile
        /// The answer's body was larger than the request allows (`HTTPRequest.maxResponseBytes`).
        case responseTooLarge
    }
    package var kind: Kind
    /// The URL without its query string (queries may carry tokens).
    package var url: String
    /// A short human reason, e.g. "Failed to connect to 127.0.0.1 port 9: Connection refused".
    package var detail: String
    package init(kind: Kind, url: String, detail: String) { self.kind = kind; self.url = url; self.detail = detail }
    package var description: String { "\(url): \(detail)" }
}
