import HTTPTransport
import QuickBloxAPI
import XMPPTransport

/// A REST or chat failure as a person should read it: the server's own reason,
/// the endpoint, a hint (often the config key to check), and the class of
/// failure that decides the exit code. Login and messaging wrap it in their errors.
package struct FailureDescription: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Bad input or configuration (exit 2).
        case invalidInput
        /// Bad credentials, not logged in, session expired (exit 4).
        case authentication
        /// Worth retrying later: cannot connect, timeout, 5xx, 429 (exit 75).
        case temporary
        /// Anything else (exit 1).
        case failure
    }
    package var kind: Kind
    package var message: String
    /// What to do about it, when there is something to say.
    package var hint: String?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    package init(describing error: QuickBloxError, doing what: String) {
        self = Self.describe(error, doing: what)
    }

    package init(describing error: XMPPError) {
        self = Self.describe(error)
    }

    private static func describe(_ error: QuickBloxError, doing what: String) -> FailureDescription {
        let reason = error.reasons.isEmpty ? nil : error.reasons.joined(separator: "; ")
        switch error.kind {
        case .transport(let kind):
            let endpoint = error.request.split(separator: " ").last.map(String.init) ?? error.request
            switch kind {
            case .cannotConnect:
                return FailureDescription(.temporary, "\(what): cannot connect to \(endpoint)",
                                          hint: "is the server running and endpoints.api right?")
            case .timedOut:
                return FailureDescription(.temporary, "\(what): \(endpoint) did not answer in time", hint: "try again later")
            case .tls:
                return FailureDescription(.failure, "\(what): TLS to \(endpoint) failed: \(reason ?? "certificate not trusted")",
                                          hint: "set caFile in the config to trust a private CA")
            case .invalidURL:
                return FailureDescription(.invalidInput, "\(what): invalid URL \(endpoint)", hint: "check endpoints.api in the config")
            case .other:
                return FailureDescription(.temporary, "\(what): \(error.description)")
            case .responseTooLarge:
                // A server that sends that much is broken or hostile: not worth a retry.
                return FailureDescription(.failure, "\(what): unexpected answer from \(error.request): \(reason ?? "too large")")
            case .localFile:
                // The reason names the file (a disk that is full, a file that cannot be read).
                return FailureDescription(.failure, "\(what): \(reason ?? "a local file failed")")
            }
        case .http(let status):
            let text = "\(what): \(reason ?? "HTTP \(status)") (\(status) from \(error.request))"
            switch status {
            case 401 where error.isSessionGone:
                // Reached only when no password was at hand to renew it (docs/protocol.md §2).
                return FailureDescription(.authentication, "\(what): the session has expired (\(reason ?? "HTTP 401"), 401 from \(error.request))",
                                          hint: "renew it with the password from CHATCTL_PASSWORD, --password-file PATH or a terminal, or run 'chatctl login' again")
            case 401:
                return FailureDescription(.authentication, text, hint: "run 'chatctl login' again")
            case 422 where error.fieldErrors["base"]?.contains(where: { $0.containsIgnoringCase("signature") || $0.containsIgnoringCase("application") }) == true:
                return FailureDescription(.failure, text, hint: "check appId, authKey and authSecret in the config")
            case 300..<400:
                // A redirect of the API (to another host, say) is not followed: the
                // token would go with it. Waiting will not change it.
                return FailureDescription(.failure, text, hint: "chatctl does not follow redirects; check endpoints.api in the config")
            case 400..<500 where status != 429:
                return FailureDescription(.failure, text)
            default:
                return FailureDescription(.temporary, text, hint: "the server is unavailable; try again later")
            }
        case .invalidResponse:
            return FailureDescription(.failure, "\(what): unexpected answer from \(error.request)")
        }
    }

    private static func describe(_ error: XMPPError) -> FailureDescription {
        if error.code == .libraryUnavailable {
            return FailureDescription(.failure, "chat connect: \(error.detail)", hint: "is the libstrophe0 package installed?")
        }
        switch error.kind {
        case .cannotConnect:
            return FailureDescription(.temporary, "chat connect: cannot connect to \(error.endpoint)",
                                      hint: "is the chat server running and endpoints.chat right?")
        case .timedOut:
            return FailureDescription(.temporary, "chat connect: \(error.endpoint) did not complete the login in time",
                                      hint: "try again later")
        case .disconnected:
            return FailureDescription(.temporary, "chat connect: \(error.endpoint) closed the connection: \(error.detail)")
        case .notAuthorized:
            return FailureDescription(.authentication, "chat connect: \(error.endpoint) refused the credentials (not-authorized)",
                                      hint: "run 'chatctl login' again")
        case .tlsFailed:
            return FailureDescription(.failure, "chat connect: TLS to \(error.endpoint) failed: \(error.detail)",
                                      hint: "set caFile in the config to trust the server's CA")
        case .plaintextRefused:
            return FailureDescription(.failure, "chat connect: \(error.endpoint) offers no TLS; refusing to send credentials in clear",
                                      hint: "use xmpps://, or set \"allowInsecureTransport\": true")
        case .streamError(let condition):
            return FailureDescription(.failure, "chat connect: \(error.endpoint) ended the stream: \(condition)")
        }
    }
}

extension String {
    fileprivate func containsIgnoringCase(_ other: String) -> Bool {
        lowercased().contains(other.lowercased())
    }
}
