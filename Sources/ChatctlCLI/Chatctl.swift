import AuthFlow
import CommandLineKit
import Messaging

/// The command-line front end: parse, dispatch, and map every error to one
/// line on stderr and a documented exit code, in one place.
public enum Chatctl {
    public static let version = "0.1.0"

    /// The argument parser for the whole command tree.
    static let parser = CommandLineParser(root: CommandTable.root)

    /// Runs one invocation; `arguments` excludes the program name.
    public static func run(arguments: [String], environment: [String: String], io: any TerminalIO) -> Int32 {
        let outcome: ParseOutcome
        do { outcome = try parser.parse(arguments) } catch {
            io.writeErr("chatctl: \(error.message)\n\(parser.usage(for: error.path))\n")
            return ExitCode.usage.rawValue
        }
        switch outcome {
        case .version:
            io.writeOut("chatctl \(version)\n")
            return ExitCode.ok.rawValue
        case .help(let path):
            // Bare `chatctl` is a usage error that shows the help; asking for it is not.
            if arguments.isEmpty {
                io.writeErr(parser.help(for: path) + "\n")
                return ExitCode.usage.rawValue
            }
            io.writeOut(parser.help(for: path) + "\n")
            return ExitCode.ok.rawValue
        case .run(let parsed):
            let context = CommandContext(parsed: parsed, environment: environment, io: io)
            do {
                return try dispatch(context).rawValue
            } catch let error as CommandError {
                return report(error, io: io)
            } catch {
                io.writeErr("chatctl: \(error)\n")
                return ExitCode.failure.rawValue
            }
        }
    }

    private static func dispatch(_ context: CommandContext) throws -> ExitCode {
        switch context.parsed.path.dropFirst().first {
        case "login": return try LoginCommand(context: context).run()
        case "status": return try StatusCommand(context: context).run()
        case "logout": return try LogoutCommand(context: context).run()
        case "completion": return try CompletionCommand(context: context).run()
        case "dialogs": return try DialogsCommand(context: context).run()
        case "history": return try HistoryCommand(context: context).run()
        case "send": return try SendCommand(context: context).run()
        case "listen": return try ListenCommand(context: context).run()
        case "outbox": return try OutboxCommand(context: context).run()
        case "search": return try SearchCommand(context: context).run()
        case "sync": return try SyncCommand(context: context).run()
        default:
            context.io.writeErr(parser.help(for: context.parsed.path) + "\n")
            return .usage
        }
    }

    static func report(_ error: CommandError, io: any TerminalIO) -> Int32 {
        switch error {
        case .usage(let message, let path):
            io.writeErr("chatctl: \(message)\n\(parser.usage(for: path))\n")
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

extension AuthFlowError {
    var asCommandError: CommandError { .flow(self) }
}
