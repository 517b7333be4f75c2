import CommandLineKit
import SandboxHTTP
import SandboxServer
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// The server's own defaults, which the options below declare as theirs (and help shows).
private let defaults = SandboxOptions()

/// `chatctl-sandbox`: the root command, which runs the server; its options,
/// help, usage errors, completion and man page come from CommandLineKit, as
/// chatctl's do.
package struct ChatctlSandbox: SandboxCommand {
    package static let configuration = CommandConfiguration(
        name: "chatctl-sandbox",
        abstract: "A local QuickBlox-compatible backend (REST + XMPP).",
        discussion: """
            Serves the QuickBlox REST API and XMPP chat from one SQLite database, \
            for development and tests. When listening it prints exactly one line on \
            standard output: a complete chatctl config for itself. Logs go to \
            standard error; SIGINT or SIGTERM stop it.
            """,
        subcommands: [CompletionCommand.self, BackupCommand.self],
        version: version,
        manual: manual)

    @Option("host", metavar: "ADDRESS", help: "Address to listen on.")
    var host = NonEmptyText(default: defaults.host)
    @Option("api-port", metavar: "PORT", help: "REST port; 0 picks a free one.", range: 0...65535)
    var apiPort = defaults.apiPort
    @Option("chat-port", metavar: "PORT", help: "XMPP port (STARTTLS); 0 picks a free one.", range: 0...65535)
    var chatPort = defaults.chatPort
    @Option("chat-tls-port", metavar: "PORT", help: "Also serve XMPP with TLS from the first byte (xmpps://) on PORT; 0 picks one.", range: 0...65535)
    var chatTLSPort: Int?
    @Option("ws-port", metavar: "PORT", help: "Also serve XMPP over WebSocket (RFC 7395, ws://) on PORT; 0 picks one.", range: 0...65535)
    var wsPort: Int?
    @Option("db", metavar: "PATH", help: "SQLite database file (default: in memory).", completion: .file)
    var db: NonEmptyText?
    @Option("app-id", metavar: "ID", help: "Application id.", range: 1...Int(Int32.max))
    var appId = defaults.applicationId
    @Option("auth-key", metavar: "KEY", help: "Application auth key.")
    var authKey: NonEmptyText?
    @Option("auth-secret", metavar: "SECRET", help: "Application auth secret (signs sessions).")
    var authSecret: NonEmptyText?
    @Option("account-key", metavar: "KEY", help: "Account key.")
    var accountKey: NonEmptyText?
    @Option("chat-domain", metavar: "DOMAIN", help: "XMPP domain.")
    var chatDomain = NonEmptyText(default: defaults.chatDomain)
    @Option("token-ttl", metavar: "SECONDS", help: "Sliding session lifetime; fractions allowed.")
    var tokenTTL = Seconds(default: defaults.tokenTTL)
    @Option("tls-cert", metavar: "PATH", help: "PEM certificate for XMPP TLS (default: self-signed).", completion: .file)
    var tlsCert: NonEmptyText?
    @Option("tls-key", metavar: "PATH", help: "PEM private key for --tls-cert.", completion: .file)
    var tlsKey: NonEmptyText?
    @Option("log-level", metavar: "LEVEL", help: "What to log.")
    var logLevel = defaults.logLevel
    @Option("http-timeout", metavar: "SECONDS", help: "Drop HTTP connections idle this long.")
    var httpTimeout = Seconds(default: defaults.httpTimeout)
    @Option("request-timeout", metavar: "SECONDS", help: "Drop HTTP connections that take longer to send a whole request.")
    var requestTimeout = Seconds(default: defaults.requestTimeout)
    @Option("login-attempts", metavar: "N", help: "Wrong passwords per user a minute before logins get 429.", range: 1...1_000_000)
    var loginAttempts = defaults.passwordAttemptsPerMinute
    @Option("password-iterations", metavar: "N", help: "PBKDF2-HMAC-SHA256 rounds for new passwords; OWASP suggests 600000.",
            range: 1000...10_000_000)
    var passwordIterations = defaults.passwordIterations
    @Flag("no-chat", help: "Serve REST only (no XMPP listener; no caFile without --https).")
    var noChat: Bool
    @Option("storage-port", metavar: "PORT", help: "Port of the storage endpoint (blob uploads and downloads); 0 picks a free one.",
            range: 0...65535)
    var storagePort = defaults.storagePort
    @Option("storage-public-url", metavar: "URL",
            help: "The storage endpoint's address as clients are told it, when they reach it through a proxy (e.g. http://127.0.0.1:9000; default: its own).")
    var storagePublicURL: BaseURL?
    @Option("max-upload", metavar: "SIZE", help: "Largest file an upload may carry: bytes, or a number with K, M or G.")
    var maxUpload = ByteSize(default: defaults.maximumUpload)
    @Option("signed-url-ttl", metavar: "SECONDS", help: "How long upload policies and download URLs stay valid; fractions allowed.")
    var signedURLTTL = Seconds(default: defaults.signedURLLifetime)
    @Option("cors-origin", metavar: "ORIGIN",
            help: "Only web pages from ORIGIN (e.g. http://localhost:3000, or null for a file) may call the sandbox; repeat it for more (default: any origin).",
            repeatable: true)
    var corsOrigin: String?
    @Flag("https", help: "Serve the REST API, the storage endpoint and --ws-port over TLS (https://, wss://), with the certificate in caFile.")
    var https: Bool
    @Option("write-config", metavar: "PATH",
            help: "Also write the config line to PATH (mode 0640: the credentials are for a group), once listening.", completion: .file)
    var writeConfig: NonEmptyText?
    @Option("login-attempts-per-address", metavar: "N",
            help: "Wrong passwords from one client address off loopback a minute before its password logins get 429.",
            range: 1...1_000_000)
    var loginAttemptsPerAddress = defaults.passwordAttemptsPerAddressPerMinute
    @Option("max-pending", metavar: "N",
            help: "Connections an address may keep on each port not yet logged in (chat) or waiting for a request (HTTP); past it the oldest is closed.",
            range: 1...100_000)
    var maxPending = defaults.maximumPendingPerAddress
    @Option("auth-timeout", metavar: "SECONDS", help: "Close chat streams not logged in this long after connecting; fractions allowed.")
    var authTimeout = Seconds(default: defaults.authTimeout)

    package init() {}

    static let tree = CommandTree(root: ChatctlSandbox.self)

    /// Runs one invocation; `arguments` excludes the program name. Returns the exit status.
    package static func main(arguments: [String]) -> Int32 {
        ProcessSignals.startProgram()
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
        if let notice = sandbox.credentialNotice { StandardStreams.err(notice + "\n") }
        if let writeConfig, let problem = ConfigLineFile.write(sandbox.configLine, to: writeConfig.text) {
            StandardStreams.err("chatctl-sandbox: error: \(problem)\n")
            return 1
        }
        // One unbuffered write: the parent reads this line as soon as we listen.
        StandardStreams.out(sandbox.configLine + "\n")
        sandbox.run(installSignalHandlers: true)
        return 0
    }

    /// The options as the server takes them (every value checked by the parser).
    func sandboxOptions() throws(SandboxUsageError) -> SandboxOptions {
        var options = SandboxOptions()
        options.host = host.text
        options.apiPort = apiPort
        options.chatPort = chatPort
        options.chatTLSPort = chatTLSPort
        options.webSocketPort = wsPort
        if let db { options.databasePath = db.text }
        options.applicationId = appId
        if let authKey { options.authKey = authKey.text; options.givenCredentials.insert(.authKey) }
        if let authSecret { options.authSecret = authSecret.text; options.givenCredentials.insert(.authSecret) }
        if let accountKey { options.accountKey = accountKey.text; options.givenCredentials.insert(.accountKey) }
        options.chatDomain = chatDomain.text
        options.tokenTTL = tokenTTL.value
        options.tlsCertPath = tlsCert?.text
        options.tlsKeyPath = tlsKey?.text
        options.logLevel = logLevel
        options.httpTimeout = httpTimeout.value
        options.requestTimeout = requestTimeout.value
        options.passwordAttemptsPerMinute = loginAttempts
        options.passwordIterations = passwordIterations
        options.storagePort = storagePort
        options.storagePublicURL = storagePublicURL?.text
        options.maximumUpload = maxUpload.bytes
        options.signedURLLifetime = signedURLTTL.value
        do { options.corsOrigins = try CORSOrigins($corsOrigin.values) } catch {
            throw SandboxUsageError("\($corsOrigin.spelling) \(error)")
        }
        options.chatEnabled = !noChat
        options.https = https
        options.passwordAttemptsPerAddressPerMinute = loginAttemptsPerAddress
        options.maximumPendingPerAddress = maxPending
        options.authTimeout = authTimeout.value
        if noChat && (chatTLSPort != nil || wsPort != nil) {
            throw SandboxUsageError("--no-chat leaves no chat for --chat-tls-port or --ws-port")
        }
        if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
            throw SandboxUsageError("--tls-cert and --tls-key go together")
        }
        return options
    }
}
