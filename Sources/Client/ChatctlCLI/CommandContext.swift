#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
import CommandLineKit
import Diagnostics
import HTTPTransport
import QuickBloxAPI

/// What every command needs: the global options, the command path (for usage
/// errors), the environment, the terminal, and (lazily) the config, state
/// directory and REST transport.
final class CommandContext {
    let globals: Chatctl
    /// e.g. ["chatctl", "outbox", "flush"]
    let path: [String]
    let environment: [String: String]
    let io: any TerminalIO

    init(globals: Chatctl, path: [String], environment: [String: String], io: any TerminalIO) {
        self.globals = globals; self.path = path; self.environment = environment; self.io = io
    }

    var verbose: Bool { globals.verbose }

    /// A usage error about this command's invocation.
    func usage(_ message: String) -> UsageError { UsageError(message: message, path: path) }

    /// Diagnostics for --verbose, to stderr; the transports redact secrets before this.
    var verboseLog: (@Sendable (String) -> Void)? {
        guard verbose else { return nil }
        let io = UnsafeSendableIO(io: io)
        return { line in io.io.writeErr("chatctl: \(line)\n") }
    }

    /// `--profile`, then `CHATCTL_PROFILE`; nil for the default account.
    func profile() throws(Failure) -> Profile? {
        try Profile.selected(explicit: globals.profile, environment: environment)
    }

    /// The config; endpoints it leaves to its `accountKey` come from the state
    /// directory's cache, or are looked up once (docs/protocol.md §1).
    func loadConfig() throws(Failure) -> ClientConfig {
        let profile = try profile()
        let path = ClientConfig.resolvePath(explicit: globals.config, profile: profile, environment: environment)
        if let profile, globals.config == nil, !FileManager.default.fileExists(atPath: path) {
            throw Failure(.invalidInput, "there is no profile '\(profile.name)' (no file \(path))",
                                hint: "create it, e.g. from \(ExampleConfig.path() ?? "config.example.json"); 'chatctl profiles' lists the profiles")
        }
        let file = try ConfigFile.read(path)
        let lookup = try file.endpointLookup()
        var found: LookedUpEndpoints?
        if let lookup {
            found = try AccountSettingsCache(directory: try stateDirectory())
                .endpoints(for: lookup, transport: makeTransport(caFile: lookup.caFile))
        }
        var config = try file.config(lookedUp: found)
        if let seconds = try networkTimeoutOverride() {
            config.requestTimeout = seconds
            config.chatConnectTimeout = seconds
        }
        return config
    }

    /// `CHATCTL_NETWORK_TIMEOUT`: seconds for each REST request and each chat connect
    /// (instead of 30 and 15). For tests only, so that a server that never answers
    /// is shown to fail in seconds.
    func networkTimeoutOverride() throws(Failure) -> Double? {
        try positive("CHATCTL_NETWORK_TIMEOUT", "seconds", valid: \Double.isFinite)
    }

    /// A test setting: the environment variable `name` as a positive number of `unit`, if set
    /// (and `valid`: a finite one, for seconds).
    private func positive<Number: LosslessStringConvertible & Comparable & Numeric>(_ name: String, _ unit: String,
                                                                                  valid: (Number) -> Bool = { _ in true }) throws(Failure) -> Number? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let number = Number(text), number > 0, valid(number) else {
            throw Failure(.invalidInput, "\(name) must be a positive number of \(unit), not '\(text)'")
        }
        return number
    }

    /// The state directory, or a profile's own part of it.
    func stateDirectory() throws(Failure) -> String {
        let base = SessionStore.resolveDirectory(explicit: globals.stateDir, environment: environment)
        return try profile()?.stateDirectory(in: base) ?? base
    }

    func sessionStore(for config: ClientConfig) throws(Failure) -> SessionStore {
        SessionStore(directory: try stateDirectory(), key: config.sessionKey)
    }

    func makeTransport(for config: ClientConfig) throws(Failure) -> any HTTPTransporting {
        makeTransport(caFile: config.caFile)
    }

    private func makeTransport(caFile: String?) -> any HTTPTransporting {
        LazyHTTPTransport(options: HTTPClientOptions(caFile: caFile, userAgent: "chatctl/\(Chatctl.version)", verboseLog: verboseLog))
    }

    func sessionKeeper() throws(Failure) -> SessionKeeper {
        let config = try loadConfig()
        return SessionKeeper(config: config, store: try sessionStore(for: config), transport: try makeTransport(for: config))
    }

    /// `CHATCTL_PASSWORD`.
    var environmentPassword: String? {
        guard let p = environment["CHATCTL_PASSWORD"], !p.isEmpty else { return nil }
        return p
    }

    /// What `--password-file` holds, or nil without the option; a file that cannot be read
    /// is bad input (exit 2).
    func passwordFileBytes() throws -> [UInt8]? {
        guard let file = globals.passwordFile else { return nil }
        guard let bytes = PrivateFiles.read(file) else {
            throw Failure(.invalidInput, "cannot read password file \(file)",
                          hint: "check the path given to --password-file")
        }
        warnIfOthersCanRead(file, holding: "password")
        return bytes
    }

    /// A file holding a secret that every user of the machine may read: used all the same
    /// (a CI runner's mounted secret may be so), with a line saying how to close it.
    func warnIfOthersCanRead(_ path: String, holding secret: String) {
        guard PrivateFiles.othersCanRead(path) else { return }
        io.warn("warning: \(path) holds a \(secret) and every user of this machine can read it (chmod 600 \(path))")
    }

    /// The first line of `--password-file`, or nil without the option. A file
    /// that cannot be read or holds no password is bad input (exit 2).
    func filePassword() throws -> String? {
        guard let file = globals.passwordFile, let bytes = try passwordFileBytes() else { return nil }
        let password = LoginCommand.firstLine(bytes)
        guard !password.isEmpty else { throw Failure(.invalidInput, "password file \(file) is empty") }
        return password
    }

    /// `CHATCTL_SESSION_REFRESH_EVERY`: `listen` and `send --lines` refresh their session at least
    /// this often (seconds). For tests and `make bench` only, to see many
    /// refreshes in little time; unset, the session's own lifetime decides.
    func sessionRefreshOverride() throws(Failure) -> Double? {
        try positive("CHATCTL_SESSION_REFRESH_EVERY", "seconds", valid: \Double.isFinite)
    }

    /// `CHATCTL_SEND_WINDOW` (tests only): how many lines `send --lines` keeps written and
    /// unacknowledged at most (default `ChatEngine.Settings.window`), so a test reaches the
    /// wait for acks with a few thousand lines.
    func sendWindowOverride() throws(Failure) -> Int? {
        try positive("CHATCTL_SEND_WINDOW", "messages")
    }

    /// Where the password comes from when the server has forgotten the session
    /// (docs/protocol.md §2), in login's order: --password-file, CHATCTL_PASSWORD,
    /// else a no-echo prompt when stdin is a terminal. The file is read now, so a
    /// wrong path fails the command at once; the prompt comes only if a renewal needs it.
    func renewalPassword() throws -> (String) -> String? {
        let given = try filePassword() ?? environmentPassword
        let io = io
        return { login in
            if let given { return given }
            guard io.stdinIsTerminal else { return nil }
            let typed = io.readSecret(prompt: "The session expired; password for \(login): ")
            return typed.flatMap { $0.isEmpty ? nil : $0 }
        }
    }
}

/// The terminal is only ever written from the thread running the command;
/// the transports call the verbose log synchronously on that same thread.
struct UnsafeSendableIO: @unchecked Sendable { let io: any TerminalIO }
