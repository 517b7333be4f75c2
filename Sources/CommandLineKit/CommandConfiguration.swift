/// What a command type says about itself beyond its options: its name, help
/// text and the command types below it; for a program's root, also its
/// version and what its man page says beyond the commands.
public struct CommandConfiguration: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var subcommands: [any ParsableCommand.Type]
    /// The root's `--version`; nil below the root.
    public var version: String?
    /// The root's man page: the date in its footer and the sections after COMMANDS
    /// (EXIT STATUS, ENVIRONMENT, ...).
    public var manual: Manual?

    public struct Manual: Sendable {
        public var date: String
        public var sections: [ManPage.Section]
        public init(date: String, sections: [ManPage.Section]) { self.date = date; self.sections = sections }
    }

    public init(name: String, abstract: String, discussion: String? = nil, subcommands: [any ParsableCommand.Type] = [],
                version: String? = nil, manual: Manual? = nil) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.subcommands = subcommands
        self.version = version; self.manual = manual
    }
}
