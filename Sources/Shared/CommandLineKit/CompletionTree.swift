/// The command tree as shell completion sees it, walked once: for each command, root
/// first and depth first, what may follow it on a line. Each shell's script renders
/// this description; none walks the tree itself.
struct CompletionTree {
    /// One command of the tree and what may follow it.
    struct Command {
        /// Its names from the root's, e.g. `["chatctl", "dialogs", "create"]`.
        let path: [String]
        /// The commands below it (their names and abstracts).
        let subcommands: [CommandSpec]
        /// The options valid here and shown, then `--version` at the root and `--help`.
        let options: [OptionSpec]
        /// The positionals a shell offers values for: none where subcommands follow,
        /// else in order up to the first that takes the rest of the line.
        let arguments: [ArgumentSpec]

        /// The path as the scripts match it: `chatctl dialogs create`.
        var words: String { path.joined(separator: " ") }

        /// Every spelling of the options, each long one before its short one.
        var spellings: [String] { options.flatMap(Self.spellings) }

        /// Every spelling of the options that take a value, with its option.
        var valueSpellings: [(spelling: String, option: OptionSpec)] {
            options.filter(\.takesValue).flatMap { option in Self.spellings(of: option).map { ($0, option) } }
        }

        static func spellings(of option: OptionSpec) -> [String] {
            [option.longSpelling] + (option.short.map { ["-" + String($0)] } ?? [])
        }
    }

    let program: String
    let commands: [Command]

    init(root: CommandSpec) {
        program = root.name
        commands = root.allCommands().map { path, chain in
            let command = chain[chain.count - 1]
            var options = chain.shownOptions
            if chain.count == 1 { options.append(HelpFormatter.versionOption) }
            options.append(HelpFormatter.helpOption)
            var arguments: [ArgumentSpec] = []
            if command.subcommands.isEmpty {
                for argument in command.arguments {
                    arguments.append(argument)
                    if argument.isRepeating { break }
                }
            }
            return Command(path: path, subcommands: command.subcommands, options: options, arguments: arguments)
        }
    }
}
