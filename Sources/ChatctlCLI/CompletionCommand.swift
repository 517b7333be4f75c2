import CommandLineKit

/// `chatctl completion bash|zsh|fish`: generated from the command table.
struct CompletionCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        let name = context.parsed.arguments("SHELL").first ?? ""
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            throw CommandError.usage("unknown shell '\(name)' (expected bash, zsh or fish)", path: context.parsed.path)
        }
        context.io.writeOut(CompletionScript.render(shell, root: CommandTable.root))
        return .ok
    }
}
