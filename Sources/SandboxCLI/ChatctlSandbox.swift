import CommandLineKit
import SandboxHTTP
import SandboxServer
#if canImport(Glibc)
import Glibc
#endif

/// `chatctl-sandbox`: the root command, which runs the server; its options,
/// help, usage errors, completion and man page come from CommandLineKit, as
/// chatctl's do.
package struct ChatctlSandbox: SandboxCommand {
    package static let version = "0.1.0"

    package static let configuration = CommandConfiguration(
        name: "chatctl-sandbox",
        abstract: "A local QuickBlox-compatible backend (REST + XMPP).",
        discussion: """
            Serves the QuickBlox REST API and XMPP chat from one SQLite database, \
            for development and tests. When listening it prints exactly one line on \
            standard output: a complete chatctl config for itself. Logs go to \
            standard error; SIGINT or SIGTERM stop it.
            """,
        subcommands: [CompletionCommand.self],
        version: version,
        manual: manual)

    @Option("host", metavar: "ADDRESS", help: "Address to listen on (default 127.0.0.1).")
    var host: String?
    @Option("api-port", metavar: "PORT", help: "REST port; 0 picks a free one (default 0).")
    var apiPort: String?
    @Option("chat-port", metavar: "PORT", help: "XMPP port (STARTTLS); 0 picks a free one (default 0).")
    var chatPort: String?
    @Option("chat-tls-port", metavar: "PORT", help: "Also serve XMPP with TLS from the first byte (xmpps://) on PORT; 0 picks one.")
    var chatTLSPort: String?
    @Option("ws-port", metavar: "PORT", help: "Also serve XMPP over WebSocket (RFC 7395, ws://) on PORT; 0 picks one.")
    var wsPort: String?
    @Option("db", metavar: "PATH", help: "SQLite database file (default: in memory).", completion: .file)
    var db: String?
    @Option("app-id", metavar: "ID", help: "Application id (default 1).")
    var appId: String?
    @Option("auth-key", metavar: "KEY", help: "Application auth key.")
    var authKey: String?
    @Option("auth-secret", metavar: "SECRET", help: "Application auth secret (signs sessions).")
    var authSecret: String?
    @Option("account-key", metavar: "KEY", help: "Account key.")
    var accountKey: String?
    @Option("chat-domain", metavar: "DOMAIN", help: "XMPP domain (default localhost).")
    var chatDomain: String?
    @Option("token-ttl", metavar: "SECONDS", help: "Sliding session lifetime; fractions allowed (default 7200).")
    var tokenTTL: String?
    @Option("tls-cert", metavar: "PATH", help: "PEM certificate for XMPP TLS (default: self-signed).", completion: .file)
    var tlsCert: String?
    @Option("tls-key", metavar: "PATH", help: "PEM private key for --tls-cert.", completion: .file)
    var tlsKey: String?
    @Option("log-level", metavar: "LEVEL", help: "What to log (default info).",
            completion: .choices(["debug", "info", "warning", "error"]))
    var logLevel: String?
    @Option("http-timeout", metavar: "SECONDS", help: "Drop HTTP connections idle this long (default 30).")
    var httpTimeout: String?
    @Option("request-timeout", metavar: "SECONDS", help: "Drop HTTP connections that take longer to send a whole request (default 10).")
    var requestTimeout: String?
    @Option("login-attempts", metavar: "N", help: "Wrong passwords per user a minute before logins get 429 (default 10).")
    var loginAttempts: String?
    @Option("password-iterations", metavar: "N", help: "PBKDF2-HMAC-SHA256 rounds for new passwords (default 10000; OWASP suggests 600000).")
    var passwordIterations: String?
    @Flag("no-chat", help: "Serve REST only (no XMPP listener, no caFile).")
    var noChat: Bool
    @Option("storage-port", metavar: "PORT", help: "Port of the storage endpoint (blob uploads and downloads); 0 picks a free one (default 0).")
    var storagePort: String?
    @Option("storage-public-url", metavar: "URL",
            help: "The storage endpoint's address as clients are told it, when they reach it through a proxy (e.g. http://127.0.0.1:9000; default: its own).")
    var storagePublicURL: String?
    @Option("max-upload", metavar: "SIZE", help: "Largest file an upload may carry: bytes, or a number with K, M or G (default 100M).")
    var maxUpload: String?
    @Option("signed-url-ttl", metavar: "SECONDS", help: "How long upload policies and download URLs stay valid; fractions allowed (default 3600).")
    var signedURLTTL: String?
    @Option("cors-origin", metavar: "ORIGIN",
            help: "Only web pages from ORIGIN (e.g. http://localhost:3000, or null for a file) may call the sandbox; repeat it for more (default: any origin).",
            repeatable: true)
    var corsOrigin: String?

    package init() {}

    static let tree = CommandTree(root: ChatctlSandbox.self)

    /// Runs one invocation; `arguments` excludes the program name. Returns the exit status.
    package static func main(arguments: [String]) -> Int32 {
        switch tree.dispatch(arguments, out: StandardStreams.out, err: StandardStreams.err) {
        case .finished(let status):
            return status
        case .run(let invocation):
            guard let command = invocation.command as? any SandboxCommand else { return 1 }
            do { return try command.run() } catch {
                StandardStreams.err(tree.usageMessage(UsageError(message: error.message, path: invocation.path)))
                return 2
            }
        }
    }

    func run() throws(SandboxUsageError) -> Int32 {
        let options = try sandboxOptions()
        let sandbox: Sandbox
        do {
            sandbox = try Sandbox(options: options)
        } catch {
            StandardStreams.err("chatctl-sandbox: error: \(error)\n")
            return 1
        }
        // One unbuffered write: the parent reads this line as soon as we listen.
        StandardStreams.out(sandbox.configLine + "\n")
        sandbox.run(installSignalHandlers: true)
        return 0
    }

    /// The options as the server takes them; every value checked.
    func sandboxOptions() throws(SandboxUsageError) -> SandboxOptions {
        var options = SandboxOptions()
        if let host { options.host = try Self.nonEmpty(host, $host) }
        if let apiPort { options.apiPort = try Self.integer(apiPort, $apiPort, in: 0...65535) }
        if let chatPort { options.chatPort = try Self.integer(chatPort, $chatPort, in: 0...65535) }
        if let chatTLSPort { options.chatTLSPort = try Self.integer(chatTLSPort, $chatTLSPort, in: 0...65535) }
        if let wsPort { options.webSocketPort = try Self.integer(wsPort, $wsPort, in: 0...65535) }
        if let db { options.databasePath = try Self.nonEmpty(db, $db) }
        if let appId { options.applicationId = try Self.integer(appId, $appId, in: 1...Int(Int32.max)) }
        if let authKey { options.authKey = try Self.nonEmpty(authKey, $authKey) }
        if let authSecret { options.authSecret = try Self.nonEmpty(authSecret, $authSecret) }
        if let accountKey { options.accountKey = try Self.nonEmpty(accountKey, $accountKey) }
        if let chatDomain { options.chatDomain = try Self.nonEmpty(chatDomain, $chatDomain) }
        if let tokenTTL { options.tokenTTL = try Self.seconds(tokenTTL, $tokenTTL) }
        if let tlsCert { options.tlsCertPath = try Self.nonEmpty(tlsCert, $tlsCert) }
        if let tlsKey { options.tlsKeyPath = try Self.nonEmpty(tlsKey, $tlsKey) }
        // The parser has checked the value against the declared choices.
        if let logLevel, let level = SandboxLogLevel(rawValue: logLevel) { options.logLevel = level }
        if let httpTimeout { options.httpTimeout = try Self.seconds(httpTimeout, $httpTimeout) }
        if let requestTimeout { options.requestTimeout = try Self.seconds(requestTimeout, $requestTimeout) }
        if let loginAttempts { options.passwordAttemptsPerMinute = try Self.integer(loginAttempts, $loginAttempts, in: 1...1_000_000) }
        if let passwordIterations { options.passwordIterations = try Self.integer(passwordIterations, $passwordIterations, in: 1000...10_000_000) }
        if let storagePort { options.storagePort = try Self.integer(storagePort, $storagePort, in: 0...65535) }
        if let storagePublicURL { options.storagePublicURL = try Self.baseURL(storagePublicURL, $storagePublicURL) }
        if let maxUpload { options.maximumUpload = try Self.byteCount(maxUpload, $maxUpload) }
        if let signedURLTTL { options.signedURLLifetime = try Self.seconds(signedURLTTL, $signedURLTTL) }
        do { options.corsOrigins = try CORSOrigins($corsOrigin.values) } catch {
            throw SandboxUsageError("\($corsOrigin.spelling) \(error)")
        }
        options.chatEnabled = !noChat
        if noChat && (chatTLSPort != nil || wsPort != nil) {
            throw SandboxUsageError("--no-chat leaves no chat for --chat-tls-port or --ws-port")
        }
        if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
            throw SandboxUsageError("--tls-cert and --tls-key go together")
        }
        return options
    }

    static func integer(_ value: String, _ option: Option, in range: ClosedRange<Int>) throws(SandboxUsageError) -> Int {
        guard let v = Int(value), range.contains(v) else {
            throw SandboxUsageError("\(option.spelling) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(value)'")
        }
        return v
    }

    static func seconds(_ value: String, _ option: Option) throws(SandboxUsageError) -> Double {
        guard let v = Double(value), v > 0, v.isFinite else {
            throw SandboxUsageError("\(option.spelling) expects a positive number of seconds, got '\(value)'")
        }
        return v
    }

    /// `1048576`, `512K`, `100M`, `1G` (binary multiples; a trailing `B` or `iB` is allowed): a positive byte count.
    static func byteCount(_ value: String, _ option: Option) throws(SandboxUsageError) -> Int {
        var text = Substring(value.uppercased())
        if text.hasSuffix("IB") { text = text.dropLast(2) } else if text.hasSuffix("B") { text = text.dropLast() }
        var multiplier = 1
        if let unit = text.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = 1 << (10 * power)
            text = text.dropLast()
        }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(text), number > 0 else {
            throw SandboxUsageError("\(option.spelling) expects a size such as 1048576, 512K, 100M or 1G, got '\(value)'")
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw SandboxUsageError("\(option.spelling) is too large: '\(value)'") }
        return bytes
    }

    /// An http(s) URL with a host and no path, query or trailing slash.
    static func baseURL(_ value: String, _ option: Option) throws(SandboxUsageError) -> String {
        let lower = value.lowercased()
        let rest = lower.hasPrefix("http://") ? lower.dropFirst(7) : lower.hasPrefix("https://") ? lower.dropFirst(8) : nil
        guard let rest, !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"),
              !value.contains(where: { $0.isWhitespace }) else {
            throw SandboxUsageError("\(option.spelling) wants a base URL like http://127.0.0.1:9000 (no path), not '\(value)'")
        }
        return value
    }

    static func nonEmpty(_ value: String, _ option: Option) throws(SandboxUsageError) -> String {
        guard !value.isEmpty else { throw SandboxUsageError("\(option.spelling) must not be empty") }
        return value
    }
}
