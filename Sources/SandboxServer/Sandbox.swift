// CONTRACT STUB — owned by the REST/storage side; keep these signatures.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct SandboxOptions: Sendable {
    public var host = "127.0.0.1"
    public var apiPort = 0          // 0: pick a free port
    public var chatPort = 0         // 0: pick a free port
    public var databasePath: String? = nil   // nil: in memory
    public var applicationId = 1
    public var authKey = "sandbox-auth-key"
    public var authSecret = "sandbox-auth-secret"
    public var accountKey = "sandbox-account-key"
    public var chatDomain = "localhost"
    public var tokenTTL: Double = 7200        // seconds, sliding
    public var tlsCertPath: String? = nil
    public var tlsKeyPath: String? = nil
    public init() {}
}

/// REST (libevent HTTP) and XMPP (libevent + expat + OpenSSL) on one event loop.
public final class Sandbox {
    public init(options: SandboxOptions) throws { fatalError("stub") }
    /// The one-line JSON chatctl config for this sandbox (what the binary prints on stdout).
    public var configLine: String { fatalError("stub") }
    /// Runs the event loop until stop() or SIGINT/SIGTERM (when installSignalHandlers).
    public func run(installSignalHandlers: Bool) { fatalError("stub") }
    /// Thread-safe: asks the loop to finish, closing every connection.
    public func stop() { fatalError("stub") }
}
