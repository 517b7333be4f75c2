/// `PROGRAM completion bash|zsh|fish`: every program of the house lists this
/// command type and prints `script(for:)` of its own tree when it is chosen.
public struct CompletionCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script.",
        discussion: "The script's first lines say where to save it; sourcing it works too.")

    @Argument("SHELL", help: "bash, zsh or fish.", completion: .choices(CompletionScript.Shell.allCases.map(\.rawValue)))
    var shell: String

    public init() {}

    /// The script for the chosen shell (the parser has checked the choice).
    public func script(for tree: CommandTree) -> String {
        CompletionScript.render(CompletionScript.Shell(rawValue: shell) ?? .bash, root: tree.spec)
    }
}
