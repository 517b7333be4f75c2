// CONTRACT STUB — owned by the XMPP side; keep these signatures.

/// XMPP client-to-server listener on the sandbox's event loop.
final class XMPPServer {
    /// `eventBase` is the `event_base*` shared with the REST server.
    init(eventBase: OpaquePointer, host: String, port: Int, domain: String, applicationId: Int,
         tls: TLSIdentity, authenticator: ChatAuthenticator, log: SandboxLog) throws { fatalError("stub") }
    /// The port actually bound (after asking for 0).
    var boundPort: Int { fatalError("stub") }
    /// Closes the listener and every stream (with a system-shutdown stream error).
    func stop() { fatalError("stub") }
}

/// The server's TLS certificate and key (self-signed at start-up unless given).
final class TLSIdentity {
    static func selfSigned(dnsNames: [String], ipAddresses: [String]) throws -> TLSIdentity { fatalError("stub") }
    static func load(certificatePath: String, keyPath: String) throws -> TLSIdentity { fatalError("stub") }
    /// PEM of the certificate: what clients should trust (`caFile` in the printed config).
    var certificatePEM: String { fatalError("stub") }
}
