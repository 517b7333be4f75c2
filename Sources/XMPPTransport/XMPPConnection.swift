// CONTRACT STUB — to be replaced by the real implementation (keep these signatures).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `xmpps://host:port` (TLS from the first byte, default 5223) or
/// `xmpp://host:port` (STARTTLS, default 5222).
public struct ChatEndpoint: Sendable, Equatable, CustomStringConvertible {
    public enum Security: Sendable, Equatable { case directTLS, startTLS }
    public var security: Security
    public var host: String
    public var port: Int
    public init(security: Security, host: String, port: Int) { self.security = security; self.host = host; self.port = port }
    /// Parses the config form; nil when it is not an xmpp:// or xmpps:// URL.
    public init?(parsing text: String) { fatalError("stub") }
    public var description: String { fatalError("stub") }
    public var isLoopback: Bool { fatalError("stub") }
}

public struct ChatConnectOptions: Sendable {
    /// Extra CA (PEM) to trust; certificates are always verified.
    public var caFile: String?
    /// Allow SASL over an unencrypted stream when the server offers no STARTTLS.
    /// The caller sets it for loopback hosts or when the config says so explicitly.
    public var allowPlaintext: Bool
    /// Limit for the whole connect (TCP, TLS, SASL, bind, session), in seconds.
    public var timeout: Double
    /// Receives diagnostic lines for --verbose; SASL payloads never included.
    public var verboseLog: (@Sendable (String) -> Void)?
    public init(caFile: String? = nil, allowPlaintext: Bool = false, timeout: Double = 15, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.caFile = caFile; self.allowPlaintext = allowPlaintext; self.timeout = timeout; self.verboseLog = verboseLog
    }
}

public struct XMPPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case cannotConnect, timedOut, tlsFailed, notAuthorized, plaintextRefused
        case streamError(String)
        case disconnected
    }
    public var kind: Kind
    public var endpoint: String
    public var detail: String
    public init(kind: Kind, endpoint: String, detail: String) { self.kind = kind; self.endpoint = endpoint; self.detail = detail }
    public var description: String { fatalError("stub") }
}

/// One XMPP client connection through libstrophe. Not Sendable: the thread that
/// creates it runs its event loop (inside connect/disconnect and later pumping calls).
public final class XMPPConnection {
    public init() { fatalError("stub") }
    /// Blocks until the session is established (TLS, SASL PLAIN, bind, session,
    /// initial presence) or fails. Calling it while connected or connecting is not an error.
    public func connect(jid: String, password: String, endpoint: ChatEndpoint, options: ChatConnectOptions) throws(XMPPError) { fatalError("stub") }
    public var isConnected: Bool { fatalError("stub") }
    /// The full JID the server bound, after connect.
    public var boundJID: String? { fatalError("stub") }
    /// Closes the stream politely (waits at most `timeout` seconds).
    public func disconnect(timeout: Double = 2) { fatalError("stub") }
}
