/// `PROGRAM completion bash|zsh|fish`: every program of the house lists this
/// command type and prints `script(for:)` of its own tree when it is chosen.
package struct CompletionCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: "The script's first lines say where to save it; sourcing it works too.")

    @Argument("SHELL", help: "bash, zsh or fish.")
    var shell: CompletionScript.Shell

    package init() {}

    /// The script for the chosen shell.
    package func script(for tree: CommandTree) -> String {
        CompletionScript.render(shell, root: tree.spec)
    }
}
