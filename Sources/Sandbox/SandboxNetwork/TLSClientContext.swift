internal import CEvent
import SandboxLogging

/// The OpenSSL client context every load client shares: TLS 1.2 or later, the peer's
/// certificate checked against the sandbox's CA file alone and against the chat domain,
/// as chatctl checks it (docs/protocol.md §7). Owns the `SSL_CTX`; hands out one `SSL` per
/// connection, which the connection's TLS bufferevent then owns.
package final class TLSClientContext {
    private let context: OpaquePointer   // SSL_CTX*
    private let host: String

    package init(caFile: String, host: String) throws(SandboxFailure) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw SandboxFailure("SSL_CTX_new failed") }
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
            SSL_CTX_free(context)
            throw SandboxFailure("cannot read the sandbox's CA file \(caFile)")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        self.context = context
        self.host = host
    }

    deinit { SSL_CTX_free(context) }

    /// A new `SSL*` that verifies the server as `host`; nil when OpenSSL cannot make one.
    func makeSSL() -> OpaquePointer? {
        guard let ssl = SSL_new(context) else { return nil }
        guard SSL_set1_host(ssl, host) == 1 else {
            SSL_free(ssl)
            return nil
        }
        return ssl
    }
}

@available(*, unavailable) extension TLSClientContext: Sendable {}
