/// Renders `--help` and usage text from the declarations of one command chain.
struct HelpFormatter {
    static let width = 80
    /// Column where the help text of an option, argument or subcommand starts.
    static let helpColumn = 26

    let chain: [CommandSpec]
    var command: CommandSpec { chain[chain.count - 1] }
    var path: [String] { chain.map(\.name) }
    var isRoot: Bool { chain.count == 1 }

    /// Options shown in this command's own OPTIONS section (and its usage); hidden ones never are.
    var ownOptions: [OptionSpec] { (command.options + command.inheritedOptions).filter { !$0.isHidden } }

    static let helpOption = OptionSpec("help", short: "h", help: "Show help information.")
    static let versionOption = OptionSpec("version", short: "V", help: "Show the version.")

    static func usageFragment(_ option: OptionSpec) -> String {
        var text = option.longSpelling
        if let metavar = option.metavar { text += " <\(metavar)>" }
        return "[\(text)]"
    }

    static func usageFragment(_ argument: ArgumentSpec) -> String {
        var text = "<\(argument.name)>"
        if argument.isRepeating { text += " ..." }
        return argument.isOptional ? "[\(text)]" : text
    }

    static func label(_ option: OptionSpec) -> String {
        var text = option.short.map { "-\($0), " } ?? ""
        text += option.longSpelling
        if let metavar = option.metavar { text += " <\(metavar)>" }
        return text
    }

    /// Usage words after the command path: options, then arguments or `<subcommand>`.
    func usageWords(compactOptions: Bool) -> [String] {
        var words: [String] = []
        if compactOptions {
            if !ownOptions.isEmpty { words.append("[<options>]") }
        } else {
            words += ownOptions.map(Self.usageFragment)
        }
        words += command.arguments.map(Self.usageFragment)
        if !command.subcommands.isEmpty { words.append(command.runsItself ? "[<subcommand>]" : "<subcommand>") }
        return words
    }

    /// One line: the full usage if it fits in 80 columns, else with `[<options>]`.
    func usageLine(prefix: String) -> String {
        let head = prefix + path.joined(separator: " ")
        let full = ([head] + usageWords(compactOptions: false)).joined(separator: " ")
        if full.count <= Self.width { return full }
        return ([head] + usageWords(compactOptions: true)).joined(separator: " ")
    }

    /// What a usage error shows under its line: the usage with every option spelled out
    /// (wrapped, never a bare `[<options>]`), then the command's examples, so that the
    /// error itself shows how the command is said (`dialogs create --with @A,@B`).
    func errorUsage() -> String {
        let usage = usageSection(prefix: "usage: ")
        guard !command.examples.isEmpty else { return usage }
        let label = "examples: "
        // Two at most: enough to show how it is said, short enough to stay an error message.
        let lines = command.examples.prefix(2).enumerated().map { index, example in
            (index == 0 ? label : String(repeating: " ", count: label.count)) + example.command
        }
        return usage + "\n" + lines.joined(separator: "\n")
    }

    /// The USAGE section: every option spelled out, wrapped under the command path.
    func usageSection(prefix: String = "USAGE: ") -> String {
        let head = prefix + path.joined(separator: " ")
        var lines: [String] = []
        var line = head
        for word in usageWords(compactOptions: false) {
            if line.count + 1 + word.count > Self.width && line != head {
                lines.append(line)
                line = String(repeating: " ", count: head.count) + " " + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// "  --login <NAME>          QuickBlox login or email."
    static func row(_ label: String, _ help: String) -> String {
        let start = "  " + label
        if help.isEmpty { return start }
        if start.count < helpColumn - 1 {
            let padded = start + String(repeating: " ", count: helpColumn - start.count)
            return padded + TextWrapping.wrap(help, width: width, indent: helpColumn, firstIndent: helpColumn)
        }
        return start + "\n" + TextWrapping.wrap(help, width: width, indent: helpColumn)
    }

    func help() -> String {
        var sections: [String] = []
        sections.append(TextWrapping.wrap("OVERVIEW: " + command.abstract, indent: 0))
        if let discussion = command.discussion, !discussion.isEmpty {
            sections.append(TextWrapping.wrap(discussion, indent: 0))
        }
        sections.append(usageSection())
        if !command.arguments.isEmpty {
            sections.append((["ARGUMENTS:"] + command.arguments.map {
                Self.row("<\($0.name)>" + ($0.isRepeating ? " ..." : ""), $0.help)
            }).joined(separator: "\n"))
        }
        var options = ownOptions
        if isRoot { options.append(Self.versionOption) }
        options.append(Self.helpOption)
        sections.append((["OPTIONS:"] + options.map { Self.row(Self.label($0), $0.shownHelp) }).joined(separator: "\n"))
        let globals = chain.globalOptions
        if !globals.isEmpty {
            sections.append((["GLOBAL OPTIONS:"] + globals.map { Self.row(Self.label($0), $0.shownHelp) }).joined(separator: "\n"))
        }
        if !command.subcommands.isEmpty {
            sections.append((["SUBCOMMANDS:"] + command.subcommands.map { Self.row($0.name, $0.abstract) }).joined(separator: "\n"))
        }
        if !command.examples.isEmpty {
            sections.append("EXAMPLES:\n" + Self.examples(command.examples))
        }
        if !command.subcommands.isEmpty {
            let helpPath = ([path[0], "help"] + path.dropFirst()).joined(separator: " ")
            sections.append("  See '\(helpPath) <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n")
    }

    /// Each example as a shell comment over its command line, ready to paste:
    /// the comment wraps, the command never does.
    static func examples(_ examples: [Example]) -> String {
        examples.map { example in
            let comment = TextWrapping.wrap(example.comment, width: width - 4, indent: 0)
                .split(separator: "\n").map { "  # " + $0 }.joined(separator: "\n")
            return comment + "\n  " + example.command
        }.joined(separator: "\n\n")
    }
}
