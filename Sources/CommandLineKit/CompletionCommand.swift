/// `PROGRAM completion bash|zsh|fish`: every program of the house lists this
/// command type and prints `script(for:)` of its own tree when it is chosen.
package struct CompletionCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: "The script's first lines say where to save it; sourcing it works too.")

    @Argument("SHELL", help: "bash, zsh or fish.", completion: .choices(CompletionScript.Shell.allCases.map(\.rawValue)))
    var shell: String

    package init() {}

    /// The script for the chosen shell (the parser has checked the choice).
    package func script(for tree: CommandTree) -> String {
        CompletionScript.render(CompletionScript.Shell(rawValue: shell) ?? .bash, root: tree.spec)
    }
}
