import CommandLineKit

/// `chatctl version`: CommandLineKit answers it (as `--version`) before a command runs.
extension VersionCommand: Command {
    func run(_ context: CommandContext) throws -> ExitCode {
        context.io.writeOut("chatctl \(Chatctl.version)\n")
        return .ok
    }
}
