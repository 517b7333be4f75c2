public struct XMPPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case cannotConnect, timedOut, tlsFailed, notAuthorized, plaintextRefused
        case streamError(String)
        case disconnected
    }
    public var kind: Kind
    /// The endpoint in URL form (`xmpp://host:port`).
    public var endpoint: String
    /// Extra words from libstrophe or the server; never a password or token.
    public var detail: String
    public init(kind: Kind, endpoint: String, detail: String) { self.kind = kind; self.endpoint = endpoint; self.detail = detail }

    public var description: String {
        let what: String
        switch kind {
        case .cannotConnect: what = "cannot connect to chat server \(endpoint)"
        case .timedOut: what = "chat connection to \(endpoint) timed out"
        case .tlsFailed: what = "TLS with chat server \(endpoint) failed (certificate not trusted or handshake error)"
        case .notAuthorized: what = "chat server \(endpoint) refused the credentials (not-authorized)"
        case .plaintextRefused: what = "chat server \(endpoint) offers no TLS; refusing to send credentials in plain text"
        case .streamError(let condition): what = "chat server \(endpoint) closed the stream: \(condition)"
        case .disconnected: what = "not connected to chat server \(endpoint)"
        }
        return detail.isEmpty ? what : "\(what): \(detail)"
    }
}
