#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
import CommandLineKit
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
    func usage(_ message: String) -> CommandError { .usage(message, path: path) }

    /// Diagnostics for --verbose, to stderr; the transports redact secrets before this.
    var verboseLog: (@Sendable (String) -> Void)? {
        guard verbose else { return nil }
        let io = UnsafeSendableIO(io: io)
        return { line in io.io.writeErr("chatctl: \(line)\n") }
    }

    /// `--profile`, then `CHATCTL_PROFILE`; nil for the default account.
    func profile() throws(AuthFlowError) -> Profile? {
        do { return try Profile.selected(explicit: globals.profile, environment: environment) } catch {
            throw AuthFlowError(error)
        }
    }

    func loadConfig() throws(AuthFlowError) -> ClientConfig {
        let profile = try profile()
        let path = ClientConfig.resolvePath(explicit: globals.config, profile: profile, environment: environment)
        if let profile, globals.config == nil, !FileManager.default.fileExists(atPath: path) {
            throw AuthFlowError(.invalidInput, "there is no profile '\(profile.name)' (no file \(path))",
                                hint: "create it, e.g. from config.example.json; 'chatctl profiles' lists the profiles")
        }
        do { return try ClientConfig.load(path: path) } catch { throw AuthFlowError(error) }
    }

    /// The state directory, or a profile's own part of it.
    func stateDirectory() throws(AuthFlowError) -> String {
        let base = SessionStore.resolveDirectory(explicit: globals.stateDir, environment: environment)
        return try profile()?.stateDirectory(in: base) ?? base
    }

    func sessionStore(for config: ClientConfig) throws(AuthFlowError) -> SessionStore {
        SessionStore(directory: try stateDirectory(), key: config.sessionKey)
    }

    func makeTransport(for config: ClientConfig) throws(AuthFlowError) -> any HTTPTransporting {
        LazyHTTPTransport(options: HTTPClientOptions(caFile: config.caFile, userAgent: "chatctl/\(Chatctl.version)",
                                                     verboseLog: verboseLog))
    }

    func sessionKeeper() throws(AuthFlowError) -> SessionKeeper {
        let config = try loadConfig()
        return SessionKeeper(config: config, store: try sessionStore(for: config), transport: try makeTransport(for: config))
    }

    /// `CHATCTL_PASSWORD`, used to renew an expired session silently.
    var environmentPassword: String? {
        guard let p = environment["CHATCTL_PASSWORD"], !p.isEmpty else { return nil }
        return p
    }
}

/// The terminal is only ever written from the thread running the command;
/// the transports call the verbose log synchronously on that same thread.
struct UnsafeSendableIO: @unchecked Sendable { let io: any TerminalIO }

/// Creates the libcurl client on the first request, so commands that answer
/// from the cache (`--offline`) never load libcurl at all.
final class LazyHTTPTransport: HTTPTransporting {
    private let options: HTTPClientOptions
    private var client: CurlHTTPClient?

    init(options: HTTPClientOptions) { self.options = options }

    func perform(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        if client == nil { client = try CurlHTTPClient(options: options) }
        return try client!.perform(request)
    }
}
