import CommandLineKit

/// `chatctl completion bash|zsh|fish`: CommandLineKit's script of chatctl's tree.
extension CompletionCommand: Command {
    func run(_ context: CommandContext) throws -> ExitCode {
        context.io.writeOut(script(for: Chatctl.tree))
        return .ok
    }
}
