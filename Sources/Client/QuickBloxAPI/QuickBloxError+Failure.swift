import Diagnostics

/// A REST failure as a person should read it: the server's own reason, the
/// endpoint, a hint (often the config key to check), and the class of failure that
/// decides the exit code. Every command that calls the API reads its failures so.
extension Failure {
    /// `what`: the step that failed ("log in", "send"); `hint`: said instead of the usual one.
    package init(describing error: QuickBloxError, doing what: String, hint: String? = nil) {
        self.init(reading: error, doing: what)
        if let hint { self.hint = hint }
    }

    /// What to do when a session made from a token has gone and no password can renew it.
    package static let tokenExpiredHint = "log in again with 'chatctl login', or pass a new token with 'chatctl login --token-stdin'"

    private init(reading error: QuickBloxError, doing what: String) {
        let reason = error.reasons.isEmpty ? nil : error.reasons.joined(separator: "; ")
        switch error.kind {
        case .transport(let kind):
            let endpoint = error.request.split(separator: " ").last.map(String.init) ?? error.request
            switch kind {
            case .cannotConnect:
                self.init(.temporary, "\(what): cannot connect to \(endpoint)", hint: "is the server running and endpoints.api right?")
            case .timedOut:
                self.init(.temporary, "\(what): \(endpoint) did not answer in time", hint: "try again later")
            case .tls:
                self.init(.failure, "\(what): TLS to \(endpoint) failed: \(reason ?? "certificate not trusted")",
                          hint: "set caFile in the config to trust a private CA")
            case .invalidURL:
                self.init(.invalidInput, "\(what): invalid URL \(endpoint)", hint: "check endpoints.api in the config")
            case .other:
                self.init(.temporary, "\(what): \(error.description)")
            case .responseTooLarge:
                // A server that sends that much is broken or hostile: not worth a retry.
                self.init(.failure, "\(what): unexpected answer from \(error.request): \(reason ?? "too large")")
            case .localFile:
                // The reason names the file (a disk that is full, a file that cannot be read).
                self.init(.failure, "\(what): \(reason ?? "a local file failed")")
            }
        case .http(let status):
            let text = "\(what): \(reason ?? "HTTP \(status)") (\(status) from \(error.request))"
            switch status {
            case 401 where error.isSessionGone && error.sessionFromToken:
                self.init(.authentication, "\(what): the session token has expired (\(reason ?? "HTTP 401"), 401 from \(error.request))",
                          hint: Self.tokenExpiredHint)
            case 401 where error.isSessionGone:
                // Reached only when no password was at hand to renew it (docs/protocol.md §2).
                self.init(.authentication, "\(what): the session has expired (\(reason ?? "HTTP 401"), 401 from \(error.request))",
                          hint: "renew it with the password from CHATCTL_PASSWORD, --password-file PATH or a terminal, or run 'chatctl login' again")
            case 401:
                self.init(.authentication, text, hint: "run 'chatctl login' again")
            case 422 where error.fieldErrors["base"]?.contains(where: { $0.containsIgnoringCase("signature") || $0.containsIgnoringCase("application") }) == true:
                self.init(.failure, text, hint: "check appId, authKey and authSecret in the config")
            case 300..<400:
                // A redirect of the API (to another host, say) is not followed: the
                // token would go with it. Waiting will not change it.
                self.init(.failure, text, hint: "chatctl does not follow redirects; check endpoints.api in the config")
            case 400..<500 where status != 429 && status != 408:
                self.init(.failure, text)
                self.isPermanent = true
            default:
                self.init(.temporary, text, hint: "the server is unavailable; try again later")
            }
        case .invalidResponse:
            self.init(.failure, "\(what): unexpected answer from \(error.request)")
        }
    }
}

extension String {
    fileprivate func containsIgnoringCase(_ other: String) -> Bool {
        lowercased().contains(other.lowercased())
    }
}
