import AuthFlow
import CommandLineKit
import Messaging

/// The root of the command tree and the front end: parse, dispatch, and map
/// every error to one line on stderr and a documented exit code, in one place.
public struct Chatctl: ParsableCommand {
    public static let version = "0.1.0"
    /// The date the man page carries.
    static let releaseDate = "2026-11-30"

    public static let configuration = CommandConfiguration(
        name: "chatctl",
        abstract: "A command-line chat client for QuickBlox.",
        discussion: """
            Sign up or log in with 'chatctl login', then use the other commands. \
            The config file holds the application credentials and endpoints; \
            run 'chatctl-sandbox' for a local QuickBlox-compatible backend. \
            'chatctl help --man' prints the manual page.
            """,
        subcommands: [
            LoginCommand.self, StatusCommand.self, LogoutCommand.self, DialogsCommand.self, HistoryCommand.self,
            SendCommand.self, ListenCommand.self, OutboxCommand.self, SearchCommand.self, SyncCommand.self,
            CompletionCommand.self,
        ])

    @Option("config", metavar: "PATH", help: "Config file (default: $CHATCTL_CONFIG, then $XDG_CONFIG_HOME/chatctl/config.json).",
            completion: .file, inherited: true)
    var config: String?
    @Option("state-dir", metavar: "DIR", help: "Where sessions are kept (default: $CHATCTL_STATE_DIR, then $XDG_STATE_HOME/chatctl).",
            completion: .directory, inherited: true)
    var stateDir: String?
    @Flag("verbose", short: "v", help: "Describe each network exchange on stderr (secrets redacted).", inherited: true)
    var verbose: Bool

    public init() {}

    /// The whole tree, declared by the command types.
    static let tree = CommandTree(root: Chatctl.self)

    /// Runs one invocation; `arguments` excludes the program name.
    public static func run(arguments: [String], environment: [String: String], io: any TerminalIO) -> Int32 {
        let outcome: CommandTree.Outcome
        do { outcome = try tree.parse(arguments) } catch {
            io.writeErr("chatctl: \(error.message)\n\(tree.parser.usage(for: error.path))\n")
            return ExitCode.usage.rawValue
        }
        switch outcome {
        case .version:
            io.writeOut("chatctl \(version)\n")
            return ExitCode.ok.rawValue
        case .manual:
            io.writeOut(manPage)
            return ExitCode.ok.rawValue
        case .help(let path):
            // Bare `chatctl` is a usage error that shows the help; asking for it is not.
            if arguments.isEmpty {
                io.writeErr(tree.parser.help(for: path) + "\n")
                return ExitCode.usage.rawValue
            }
            io.writeOut(tree.parser.help(for: path) + "\n")
            return ExitCode.ok.rawValue
        case .run(let invocation):
            guard let command = invocation.command as? any Command, let root = invocation.command(Chatctl.self) else {
                // A command that only groups others (none today) shows its help.
                io.writeErr(tree.parser.help(for: invocation.path) + "\n")
                return ExitCode.usage.rawValue
            }
            let context = CommandContext(globals: root, path: invocation.path, environment: environment, io: io)
            do {
                return try command.run(context).rawValue
            } catch let error as CommandError {
                return report(error, io: io)
            } catch {
                io.writeErr("chatctl: \(error)\n")
                return ExitCode.failure.rawValue
            }
        }
    }

    static func report(_ error: CommandError, io: any TerminalIO) -> Int32 {
        switch error {
        case .usage(let message, let path):
            io.writeErr("chatctl: \(message)\n\(tree.parser.usage(for: path))\n")
            return ExitCode.usage.rawValue
        case .flow(let flowError):
            io.writeErr("chatctl: \(flowError.description)\n")
            return exitCode(for: flowError.kind).rawValue
        case .messaging(let error):
            io.writeErr("chatctl: \(error.description)\n")
            switch error.kind {
            case .invalidInput: return ExitCode.usage.rawValue
            case .authentication: return ExitCode.authentication.rawValue
            case .temporary: return ExitCode.temporary.rawValue
            case .undelivered: return ExitCode.undelivered.rawValue
            case .failure: return ExitCode.failure.rawValue
            }
        }
    }

    static func exitCode(for kind: AuthFlowError.Kind) -> ExitCode {
        switch kind {
        case .invalidInput: return .usage
        case .authentication: return .authentication
        case .temporary: return .temporary
        case .failure: return .failure
        }
    }
}

/// What a command can fail with; `Chatctl.report` turns it into text and an exit code.
enum CommandError: Error {
    /// Bad invocation: message plus the command path whose usage applies.
    case usage(String, path: [String])
    case flow(AuthFlowError)
    case messaging(MessagingError)
}
