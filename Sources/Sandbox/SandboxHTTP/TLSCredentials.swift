// What a server that does its own TLS (libmicrohttpd's storage endpoint, libwebsockets'
// WebSocket port) is given for `chatctl-sandbox --https`: the sandbox's one identity as PEM.

/// A certificate (followed by its chain) and its private key, both PEM.
package struct TLSCredentials: Sendable {
    package var certificatePEM: String
    package var keyPEM: String

    package init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }
}
