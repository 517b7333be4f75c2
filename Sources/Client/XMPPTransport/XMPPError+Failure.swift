import Diagnostics

/// A chat (XMPP) failure as a person should read it: what the server did, the
/// endpoint, a hint, and the class of failure that decides the exit code.
extension Failure {
    package init(describing error: XMPPError) {
        if error.code == .libraryUnavailable {
            self.init(.failure, "chat connect: \(error.detail)", hint: "is the libstrophe0 package installed?")
            return
        }
        switch error.kind {
        case .cannotConnect:
            self.init(.temporary, "chat connect: cannot connect to \(error.endpoint)",
                      hint: "is the chat server running and endpoints.chat right?")
        case .timedOut:
            self.init(.temporary, "chat connect: \(error.endpoint) did not complete the login in time", hint: "try again later")
        case .disconnected:
            self.init(.temporary, "chat connect: \(error.endpoint) closed the connection: \(error.detail)")
        case .notAuthorized:
            self.init(.authentication, "chat connect: \(error.endpoint) refused the credentials (not-authorized)",
                      hint: "run 'chatctl login' again")
        case .tlsFailed:
            self.init(.failure, "chat connect: TLS to \(error.endpoint) failed: \(error.detail)",
                      hint: "set caFile in the config to trust the server's CA")
        case .plaintextRefused:
            self.init(.failure, "chat connect: \(error.endpoint) offers no TLS; refusing to send credentials in clear",
                      hint: "use xmpps://, or set \"allowInsecureTransport\": true")
        case .streamError(let condition):
            self.init(.failure, "chat connect: \(error.endpoint) ended the stream: \(condition)")
        }
    }
}
