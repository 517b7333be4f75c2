// What chatctl-sandbox's command line sets (SandboxCLI), with the defaults the tests use.
import SandboxHTTP
import SandboxLogging
import SandboxStorage

package enum SandboxLogLevel: String, Sendable, CaseIterable {
    case debug, info, warning, error

    var level: SandboxLog.Level {
        switch self {
        case .debug: return .debug
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }
}

package struct SandboxOptions: Sendable {
    package var host = "127.0.0.1"
    package var apiPort = 0          // 0: pick a free port
    package var chatPort = 0         // 0: pick a free port
    /// XMPP with TLS from the first byte (`xmpps://`) on this port too; nil: none, 0: pick one.
    package var chatTLSPort: Int? = nil
    /// XMPP over WebSocket (RFC 7395) on this port too; nil: none, 0: pick one.
    package var webSocketPort: Int? = nil
    package var databasePath: String? = nil   // nil: in memory
    package var applicationId = 1
    package var authKey = "sandbox-auth-key"
    package var authSecret = "sandbox-auth-secret"
    package var accountKey = "sandbox-account-key"
    package var chatDomain = "localhost"
    package var tokenTTL: Double = 7200        // seconds, sliding
    package var tlsCertPath: String? = nil
    package var tlsKeyPath: String? = nil
    package var logLevel: SandboxLogLevel = .info
    /// Seconds an HTTP connection may sit idle or half-sent before it is dropped.
    package var httpTimeout: Double = 30
    /// Seconds an HTTP client has to send a whole request, from connecting or from the
    /// previous answer (slowloris; docs/protocol.md §2).
    package var requestTimeout: Double = 10
    /// Wrong passwords per user within a minute before logins are refused with 429 (REST)
    /// or `temporary-auth-failure` (SASL) until the minute has passed.
    package var passwordAttemptsPerMinute = PasswordAttempts.defaultLimit
    /// PBKDF2-HMAC-SHA256 rounds for new passwords (`--password-iterations`).
    package var passwordIterations = 10_000
    /// false: REST only, no XMPP listener, TLS identity or `caFile` (for testing the REST side alone).
    package var chatEnabled = true
    /// The storage endpoint's port (uploads and downloads, docs/protocol.md §8); 0: pick a free port.
    package var storagePort = 0
    /// The storage endpoint's address as clients are told it (upload policies, download
    /// redirects), when they reach it through something in between (a proxy); nil: its own.
    package var storagePublicURL: String?
    /// The largest file an upload may carry, in bytes (`--max-upload`).
    package var maximumUpload = 100 * 1024 * 1024
    /// Seconds an upload policy or a signed download URL stays valid.
    package var signedURLLifetime: Double = 3600
    /// Which web pages may use the REST API, the storage endpoint and the WebSocket port
    /// (`--cors-origin`, docs/protocol.md §10); any by default, as the sandbox listens on loopback.
    package var corsOrigins = CORSOrigins.any
    /// `--https`: the REST API, the storage endpoint and the WebSocket port speak TLS, with the
    /// identity chat's TLS uses (`https://`, `wss://`; docs/protocol.md §1).
    package var https = false
    /// Wrong passwords (and logins of nobody) from one client address within a minute before
    /// its password logins are refused like the per-user limit's (`--login-attempts-per-address`).
    package var passwordAttemptsPerAddressPerMinute = PasswordAttempts.defaultAddressLimit
    /// Which of `authKey`, `authSecret`, `accountKey` were given (`--auth-key`, …): off loopback
    /// the others are not the published defaults but random, kept in the database (`Sandbox+Credentials.swift`).
    package var givenCredentials: Set<SandboxCredential> = []
    /// Connections one address may keep open on each port without being of use yet: chat
    /// streams not yet authenticated, HTTP connections waiting for a request. Past it the
    /// oldest of them is closed, not the newcomer (`--max-pending`, docs/protocol.md §7).
    package var maximumPendingPerAddress = 32
    /// Seconds a chat stream may take to authenticate and bind (`--auth-timeout`).
    package var authTimeout: Double = 30
    package init() {}
}
