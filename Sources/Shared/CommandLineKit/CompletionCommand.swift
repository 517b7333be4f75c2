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

    /// Where each shell looks for a user's completions (its own documentation).
    package static func examples(program: String) -> [Example] {
        [Example("Complete \(program) in every new bash", "\(program) completion bash > ~/.local/share/bash-completion/completions/\(program)"),
         Example("Complete \(program) in zsh: save it in a directory of $fpath", "\(program) completion zsh > ~/.zfunc/_\(program)"),
         Example("Complete \(program) in every new fish", "\(program) completion fish > ~/.config/fish/completions/\(program).fish")]
    }

    /// The script for the chosen shell.
    package func script(for tree: CommandTree) -> String {
        CompletionScript.render(shell, root: tree.spec)
    }
}
