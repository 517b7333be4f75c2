package struct XMPPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened to the connection. Closed: other modules switch over it
    /// exhaustively, so failures added later are told apart by `code` instead.
    package enum Kind: Sendable, Equatable {
        case cannotConnect, timedOut, tlsFailed, notAuthorized, plaintextRefused
        case streamError(String)
        case disconnected
    }

    /// Failures of the messaging layer, which leave the connection as it was.
    /// A `RawRepresentable` struct, not an enum, so codes can be added without
    /// breaking anyone's `switch`.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The message cannot be sent as it is (`detail` says why, never quoting the body).
        package static let invalidMessage = Code(rawValue: "invalid-message")
        /// A MUC room refused the join; `detail` starts with the presence error condition.
        package static let roomJoinFailed = Code(rawValue: "room-join-failed")
        /// libstrophe, loaded on first use, is not there (`detail` has the loader's reason).
        package static let libraryUnavailable = Code(rawValue: "library-unavailable")
        package var description: String { rawValue }
    }

    package var kind: Kind
    /// Set for messaging-layer failures; `kind` is then `.streamError(code.rawValue)`
    /// only so exhaustive switches over `Kind` keep compiling: test `code` first.
    package var code: Code?
    /// The endpoint in URL form (`xmpp://host:port`).
    package var endpoint: String
    /// Extra words from libstrophe or the server; never a password, token or message body.
    package var detail: String
    package init(kind: Kind, endpoint: String, detail: String) { self.kind = kind; self.endpoint = endpoint; self.detail = detail }

    package init(code: Code, endpoint: String, detail: String) {
        self.init(kind: .streamError(code.rawValue), endpoint: endpoint, detail: detail)
        self.code = code
    }

    package var description: String {
        let what: String
        switch code {
        case .invalidMessage?: what = "message not sent"
        case .roomJoinFailed?: what = "chat server \(endpoint) refused to let us join the group"
        case .libraryUnavailable?: what = "cannot chat with \(endpoint)"
        case let other?: what = "chat server \(endpoint): \(other)"
        case nil:
            switch kind {
            case .cannotConnect: what = "cannot connect to chat server \(endpoint)"
            case .timedOut: what = "chat connection to \(endpoint) timed out"
            case .tlsFailed: what = "TLS with chat server \(endpoint) failed (certificate not trusted or handshake error)"
            case .notAuthorized: what = "chat server \(endpoint) refused the credentials (not-authorized)"
            case .plaintextRefused: what = "chat server \(endpoint) offers no TLS; refusing to send credentials in plain text"
            case .streamError(let condition): what = "chat server \(endpoint) closed the stream: \(condition)"
            case .disconnected: what = "not connected to chat server \(endpoint)"
            }
        }
        return detail.isEmpty ? what : "\(what): \(detail)"
    }
}
