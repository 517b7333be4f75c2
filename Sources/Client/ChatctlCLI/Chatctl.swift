import AuthFlow
import CommandLineKit
import Diagnostics
import Messaging
import Transfers

/// The root of the command tree and the front end: parse, dispatch, and map
/// every error to one line on stderr and a documented exit code, in one place.
package struct Chatctl: ParsableCommand {
    package static let configuration = withBuildDetails(CommandConfiguration(
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
            SendCommand.self, ForwardCommand.self, ListenCommand.self, ChatCommand.self, OutboxCommand.self, SearchCommand.self, SyncCommand.self,
            ReadCommand.self, ProfilesCommand.self, ProfileCommand.self, EditCommand.self, DeleteCommand.self, UsersCommand.self, ContactsCommand.self, BlockCommand.self, UnblockCommand.self, BlockedCommand.self, PushCommand.self,
            DownloadCommand.self, ExportCommand.self, CacheCommand.self, CompletionCommand.self, VersionCommand.self,
        ],
        version: version,
        manual: manual,
        examples: [
            Example("Log in, or sign up when alice has no account yet (asks on a terminal)", "chatctl login --login alice"),
            Example("Send bob a message", "chatctl send @bob 'lunch at noon?'"),
            Example("Print messages as they arrive, in all your dialogs", "chatctl listen"),
            Example("Chat in the full-screen view", "chatctl chat"),
        ],
        commonCommands: ["login", "chat", "dialogs", "send", "history", "listen", "search", "status"],
        meanings: ["whoami": "me", "accounts": "profiles"]))

    /// `chatctl version` also says what the build was made from (`buildDetails`).
    private static func withBuildDetails(_ configuration: CommandConfiguration) -> CommandConfiguration {
        var configuration = configuration
        configuration.versionDetails = buildDetails
        return configuration
    }

    @Option("config", metavar: "PATH", help: "Config file (default: the profile's, then $CHATCTL_CONFIG, then $XDG_CONFIG_HOME/chatctl/config.json).",
            completion: .file, inherited: true)
    var config: String?
    @Option("state-dir", metavar: "DIR", help: "Where sessions are kept (default: $CHATCTL_STATE_DIR, then $XDG_STATE_HOME/chatctl).",
            completion: .directory, inherited: true)
    var stateDir: String?
    @Option("profile", short: "p", metavar: "NAME",
            help: "Use this account: its config is profiles/NAME.json beside config.json, its session and cache its own (default: $CHATCTL_PROFILE).",
            inherited: true)
    var profile: String?
    @Flag("verbose", short: "v", help: "Describe each network exchange on stderr (secrets redacted).", inherited: true)
    var verbose: Bool
    @Option("password-file", metavar: "PATH",
            help: "Read the password from the first line of a file: to log in, or to renew an expired session (me set --password: current, then new, on two lines).",
            completion: .file, inherited: true)
    var passwordFile: String?

    package init() {}

    /// The whole tree, declared by the command types.
    static let tree = CommandTree(root: Chatctl.self)

    /// Runs one invocation; `arguments` excludes the program name. The environment
    /// is read only when a command runs: help, `--version`, completion scripts and
    /// usage errors never need it (start-up time).
    package static func run(arguments: [String], environment: @autoclosure () -> [String: String], io: any TerminalIO) -> Int32 {
        let invocation: Invocation
        // The environment only for `help --man` (its PATH): it never escapes the dispatch.
        let dispatch = withoutActuallyEscaping(environment) { environment in
            tree.dispatch(arguments, out: io.writeOut, err: io.writeErr) { page in
                ManualPageViewer.show(page, io: io, environment: environment())
            }
        }
        switch dispatch {
        case .finished(let status): return status
        case .run(let named): invocation = named
        }
        guard let root = invocation.command(Chatctl.self) else { preconditionFailure("the root is always named") }
        let context = CommandContext(globals: root, path: invocation.path, environment: environment(), io: io)
        do {
            guard let status = try invocation.command.perform(with: context) else {
                // Every command of the tree is a Command (a test walks the tree).
                io.writeErr("chatctl: '\(invocation.path.joined(separator: " "))' cannot run\n")
                return ExitCode.failure.rawValue
            }
            return status
        } catch {
            return report(error, io: io)
        }
    }

    /// The one place an error becomes a line on stderr and an exit code.
    static func report(_ error: any Error, io: any TerminalIO) -> Int32 {
        switch error {
        case let usage as UsageError:
            io.writeErr(tree.usageMessage(usage))
            return ExitCode.usage.rawValue
        case let failure as Failure:
            io.warn(failure.description, details: failure.details)
            return ExitCode(failure.kind).rawValue
        default:
            io.warn("\(error)")
            return ExitCode.failure.rawValue
        }
    }
}
