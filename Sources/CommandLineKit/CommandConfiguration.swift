/// What a command type says about itself beyond its options: its name, help
/// text and the command types below it.
public struct CommandConfiguration: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var subcommands: [any ParsableCommand.Type]

    public init(name: String, abstract: String, discussion: String? = nil, subcommands: [any ParsableCommand.Type] = []) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.subcommands = subcommands
    }
}
