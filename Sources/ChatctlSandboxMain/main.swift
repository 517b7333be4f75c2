// chatctl-sandbox: flag parsing and start-up; everything else lives in SandboxServer.
import SandboxServer
#if canImport(Glibc)
import Glibc
#endif

let version = "chatctl-sandbox 0.1.0"

/// One row per option: the table drives parsing and `--help`.
struct OptionSpec: Sendable {
    var name: String
    var metaVar: String?          // nil: a flag without a value
    var help: String
    var apply: @Sendable (inout SandboxOptions, String) throws(UsageError) -> Void
}

struct UsageError: Error, Sendable { var message: String }

func integer(_ value: String, _ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let v = Int(value), range.contains(v) else {
        throw UsageError(message: "--\(name) expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(value)'")
    }
    return v
}

func seconds(_ value: String, _ name: String) throws(UsageError) -> Double {
    guard let v = Double(value), v > 0, v.isFinite else {
        throw UsageError(message: "--\(name) expects a positive number of seconds, got '\(value)'")
    }
    return v
}

func nonEmpty(_ value: String, _ name: String) throws(UsageError) -> String {
    guard !value.isEmpty else { throw UsageError(message: "--\(name) must not be empty") }
    return value
}

nonisolated let optionTable: [OptionSpec] = [
    OptionSpec(name: "host", metaVar: "ADDRESS", help: "address to listen on (default 127.0.0.1)") { o, v throws(UsageError) in o.host = try nonEmpty(v, "host") },
    OptionSpec(name: "api-port", metaVar: "PORT", help: "REST port; 0 picks a free one (default 0)") { o, v throws(UsageError) in o.apiPort = try integer(v, "api-port", in: 0...65535) },
    OptionSpec(name: "chat-port", metaVar: "PORT", help: "XMPP port; 0 picks a free one (default 0)") { o, v throws(UsageError) in o.chatPort = try integer(v, "chat-port", in: 0...65535) },
    OptionSpec(name: "db", metaVar: "PATH", help: "SQLite database file (default: in memory)") { o, v throws(UsageError) in o.databasePath = try nonEmpty(v, "db") },
    OptionSpec(name: "app-id", metaVar: "ID", help: "application id (default 1)") { o, v throws(UsageError) in o.applicationId = try integer(v, "app-id", in: 1...Int(Int32.max)) },
    OptionSpec(name: "auth-key", metaVar: "KEY", help: "application auth key") { o, v throws(UsageError) in o.authKey = try nonEmpty(v, "auth-key") },
    OptionSpec(name: "auth-secret", metaVar: "SECRET", help: "application auth secret (signs sessions)") { o, v throws(UsageError) in o.authSecret = try nonEmpty(v, "auth-secret") },
    OptionSpec(name: "account-key", metaVar: "KEY", help: "account key") { o, v throws(UsageError) in o.accountKey = try nonEmpty(v, "account-key") },
    OptionSpec(name: "chat-domain", metaVar: "DOMAIN", help: "XMPP domain (default localhost)") { o, v throws(UsageError) in o.chatDomain = try nonEmpty(v, "chat-domain") },
    OptionSpec(name: "token-ttl", metaVar: "SECONDS", help: "sliding session lifetime (default 7200)") { o, v throws(UsageError) in o.tokenTTL = try seconds(v, "token-ttl") },
    OptionSpec(name: "tls-cert", metaVar: "PATH", help: "PEM certificate for XMPP TLS (default: self-signed)") { o, v throws(UsageError) in o.tlsCertPath = try nonEmpty(v, "tls-cert") },
    OptionSpec(name: "tls-key", metaVar: "PATH", help: "PEM private key for --tls-cert") { o, v throws(UsageError) in o.tlsKeyPath = try nonEmpty(v, "tls-key") },
    OptionSpec(name: "log-level", metaVar: "LEVEL", help: "debug, info, warning or error (default info)") { o, v throws(UsageError) in
        guard let level = SandboxLogLevel(rawValue: v) else {
            throw UsageError(message: "--log-level expects debug, info, warning or error, got '\(v)'")
        }
        o.logLevel = level
    },
    OptionSpec(name: "http-timeout", metaVar: "SECONDS", help: "drop HTTP connections idle this long (default 30)") { o, v throws(UsageError) in o.httpTimeout = try seconds(v, "http-timeout") },
    OptionSpec(name: "no-chat", metaVar: nil, help: "serve REST only (no XMPP listener, no caFile)") { o, _ in o.chatEnabled = false },
]

func helpText() -> String {
    var lines = [
        "USAGE: chatctl-sandbox [options]",
        "",
        "A local QuickBlox-compatible backend (REST + XMPP). When listening it prints one",
        "line on stdout: a JSON chatctl config for itself. SIGINT/SIGTERM stop it.",
        "",
        "OPTIONS:",
    ]
    let rows = optionTable.map { ("--\($0.name)" + ($0.metaVar.map { " \($0)" } ?? ""), $0.help) }
        + [("--help", "show this help"), ("--version", "show the version")]
    let width = rows.map(\.0.count).max() ?? 0
    for (left, help) in rows {
        lines.append("  " + left + String(repeating: " ", count: width - left.count + 2) + help)
    }
    return lines.joined(separator: "\n") + "\n"
}

enum Parsed { case run(SandboxOptions), help, version }

func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
    var options = SandboxOptions()
    var i = 0
    while i < arguments.count {
        let argument = arguments[i]
        i += 1
        if argument == "--help" || argument == "-h" { return .help }
        if argument == "--version" { return .version }
        guard argument.hasPrefix("--") else { throw UsageError(message: "unexpected argument '\(argument)'") }
        var name = String(argument.dropFirst(2))
        var inlineValue: String?
        if let eq = name.firstIndex(of: "=") {
            inlineValue = String(name[name.index(after: eq)...])
            name = String(name[..<eq])
        }
        guard let spec = optionTable.first(where: { $0.name == name }) else {
            throw UsageError(message: "unknown option '--\(name)' (see --help)")
        }
        if spec.metaVar == nil {
            if inlineValue != nil { throw UsageError(message: "--\(name) takes no value") }
            try spec.apply(&options, "")
            continue
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard i < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
            value = arguments[i]
            i += 1
        }
        try spec.apply(&options, value)
    }
    if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
        throw UsageError(message: "--tls-cert and --tls-key go together")
    }
    return .run(options)
}

func writeStderr(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

do {
    switch try parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(helpText(), terminator: "")
    case .version:
        print(version)
    case .run(let options):
        let sandbox: Sandbox
        do {
            sandbox = try Sandbox(options: options)
        } catch {
            writeStderr("chatctl-sandbox: error: \(error)\n")
            exit(1)
        }
        // One unbuffered write: the parent reads this line as soon as we listen.
        let line = Array((sandbox.configLine + "\n").utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        sandbox.run(installSignalHandlers: true)
    }
    exit(0)
} catch {
    writeStderr("chatctl-sandbox: error: \(error.message)\n")
    exit(2)
}
