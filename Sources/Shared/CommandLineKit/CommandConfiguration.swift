/// What a command type says about itself beyond its options: its name, help
/// text, examples and the command types below it; for a program's root, also
/// its version, the commands a bare run lists, and what its man page says
/// beyond the commands.
package struct CommandConfiguration: Sendable {
    package var name: String
    package var abstract: String
    package var discussion: String?
    package var subcommands: [any ParsableCommand.Type]
    /// The root's `--version`; nil below the root.
    package var version: String?
    /// The root's man page: the date in its footer and the sections after COMMANDS
    /// (EXIT STATUS, ENVIRONMENT, ...).
    package var manual: Manual?
    /// Uses of the command, shown under EXAMPLES in its help and in the man page.
    package var examples: [Example]
    /// Options this command answers with an error that says why (see `RefusedOption`).
    package var refusedOptions: [RefusedOption]
    /// The root's: the subcommands a bare run of the program lists, most used
    /// first. Empty: a bare run of a root that only groups commands is a usage error.
    package var commonCommands: [String]
    /// Old names of the command, still parsed so that scripts keep working, shown nowhere
    /// (help, man page, completions and "did you mean" use `name`).
    package var aliases: [String] = []
    /// Words people try under this command that are none of its subcommands, each with what
    /// they meant after the command's path (`"name": "set --full-name"`): an unknown command
    /// near one of them is answered "did you mean" that line.
    package var meanings: [String: String] = [:]
    /// Lines `PROGRAM version` adds under the version line (the build's commit, its toolchain);
    /// `--version` and `-V` stay one line, for scripts that read it.
    package var versionDetails: [String] = []

    package struct Manual: Sendable {
        package var date: String
        package var sections: [ManPage.Section]
        package init(date: String, sections: [ManPage.Section]) { self.date = date; self.sections = sections }
    }

    package init(name: String, abstract: String, discussion: String? = nil, subcommands: [any ParsableCommand.Type] = [],
                version: String? = nil, manual: Manual? = nil, examples: [Example] = [], refusedOptions: [RefusedOption] = [],
                commonCommands: [String] = [], aliases: [String] = [], meanings: [String: String] = [:]) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.subcommands = subcommands
        self.version = version; self.manual = manual; self.examples = examples; self.refusedOptions = refusedOptions
        self.commonCommands = commonCommands; self.aliases = aliases; self.meanings = meanings
    }
}
