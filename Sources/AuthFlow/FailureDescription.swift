import HTTPTransport
import QuickBloxAPI
import XMPPTransport

/// Turns transport and API errors into AuthFlowError: the server's own
/// reason, the endpoint, and a hint; the kind decides the exit code.
enum FailureDescription {
    static func describe(_ error: QuickBloxError, doing what: String) -> AuthFlowError {
        let reason = error.reasons.isEmpty ? nil : error.reasons.joined(separator: "; ")
        switch error.kind {
        case .transport(let kind):
            let endpoint = error.request.split(separator: " ").last.map(String.init) ?? error.request
            switch kind {
            case .cannotConnect:
                return AuthFlowError(.temporary, "\(what): cannot connect to \(endpoint)",
                                     hint: "is the server running and endpoints.api right?")
            case .timedOut:
                return AuthFlowError(.temporary, "\(what): \(endpoint) did not answer in time", hint: "try again later")
            case .tls:
                return AuthFlowError(.failure, "\(what): TLS to \(endpoint) failed: \(reason ?? "certificate not trusted")",
                                     hint: "set caFile in the config to trust a private CA")
            case .invalidURL:
                return AuthFlowError(.invalidInput, "\(what): invalid URL \(endpoint)", hint: "check endpoints.api in the config")
            case .other:
                return AuthFlowError(.temporary, "\(what): \(error.description)")
            }
        case .http(let status):
            let text = "\(what): \(reason ?? "HTTP \(status)") (\(status) from \(error.request))"
            switch status {
            case 401:
                return AuthFlowError(.authentication, text, hint: "run 'chatctl login' again")
            case 422 where error.fieldErrors["base"]?.contains(where: { $0.containsIgnoringCase("signature") || $0.containsIgnoringCase("application") }) == true:
                return AuthFlowError(.failure, text, hint: "check appId, authKey and authSecret in the config")
            case 400..<500 where status != 429:
                return AuthFlowError(.failure, text)
            default:
                return AuthFlowError(.temporary, text, hint: "the server is unavailable; try again later")
            }
        case .invalidResponse:
            return AuthFlowError(.failure, "\(what): unexpected answer from \(error.request)")
        }
    }

    static func describe(_ error: XMPPError) -> AuthFlowError {
        switch error.kind {
        case .cannotConnect:
            return AuthFlowError(.temporary, "chat connect: cannot connect to \(error.endpoint)",
                                 hint: "is the chat server running and endpoints.chat right?")
        case .timedOut:
            return AuthFlowError(.temporary, "chat connect: \(error.endpoint) did not complete the login in time",
                                 hint: "try again later")
        case .disconnected:
            return AuthFlowError(.temporary, "chat connect: \(error.endpoint) closed the connection: \(error.detail)")
        case .notAuthorized:
            return AuthFlowError(.authentication, "chat connect: \(error.endpoint) refused the credentials (not-authorized)",
                                 hint: "run 'chatctl login' again")
        case .tlsFailed:
            return AuthFlowError(.failure, "chat connect: TLS to \(error.endpoint) failed: \(error.detail)",
                                 hint: "set caFile in the config to trust the server's CA")
        case .plaintextRefused:
            return AuthFlowError(.failure, "chat connect: \(error.endpoint) offers no TLS; refusing to send credentials in clear",
                                 hint: "use xmpps://, or set \"allowInsecureTransport\": true")
        case .streamError(let condition):
            return AuthFlowError(.failure, "chat connect: \(error.endpoint) ended the stream: \(condition)")
        }
    }
}

extension String {
    fileprivate func containsIgnoringCase(_ other: String) -> Bool {
        lowercased().contains(other.lowercased())
    }
}

extension AuthFlowError {
    /// The one description of a REST failure every command shares: the
    /// server's reason, the endpoint, a hint, and the kind for the exit code.
    public init(describing error: QuickBloxError, doing what: String) {
        self = FailureDescription.describe(error, doing: what)
    }

    /// The same for a chat (XMPP) failure.
    public init(describing error: XMPPError) {
        self = FailureDescription.describe(error)
    }
}
