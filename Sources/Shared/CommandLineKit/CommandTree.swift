/// A program's commands, from its root command type: parses argv into values
/// of the command types named, with their options and arguments bound.
package struct CommandTree: Sendable {
    package let root: any ParsableCommand.Type

    /// Nothing is made yet: `--version` alone never needs the tree (start-up time).
    package init(root: any ParsableCommand.Type) {
        self.root = root
    }

    /// Parses over the root's outline: only the commands named are made. Made on
    /// each use; `dispatch` makes it once.
    package var parser: CommandLineParser { CommandLineParser(root: root.outline) }

    /// The whole tree as data (for completion scripts and the man page).
    package var spec: CommandSpec { root.spec }

    package enum Outcome {
        /// Run `invocation.command`.
        case run(Invocation)
        /// `--help`, `-h` or `help CMD…`: print the help of this command path.
        case help(path: [String])
        case version
        /// `help --man`: print the man page.
        case manual
    }

    package func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        try parse(arguments, with: parser)
    }

    private func parse(_ arguments: [String], with parser: CommandLineParser) throws(UsageError) -> Outcome {
        switch try parser.parse(arguments) {
        case .help(let path): return .help(path: path)
        case .version: return .version
        case .manual: return .manual
        case .run(let parsed):
            let commands = types(along: parsed.path).map { $0.bound(to: parsed) }
            return .run(Invocation(path: parsed.path, commands: commands))
        }
    }

    /// The command types named by `path` (which the parser has checked).
    private func types(along path: [String]) -> [any ParsableCommand.Type] {
        var chain: [any ParsableCommand.Type] = [root]
        for name in path.dropFirst() {
            guard let next = chain[chain.count - 1].configuration.subcommands.first(where: { $0.configuration.name == name }) else {
                preconditionFailure("the parser returned a path outside the tree: \(path)")
            }
            chain.append(next)
        }
        return chain
    }
}

extension CommandTree {
    /// What a program's front end does with argv once the kit has answered
    /// what it can alone.
    package enum Dispatch {
        /// Run `invocation.command`: the program's own work.
        case run(Invocation)
        /// Answered already (help, version, man page, completion script, usage
        /// error): exit with this status.
        case finished(status: Int32)
    }

    /// Parses argv (without the program name) and answers `--help`, `help
    /// CMD`, `--version` (`-V`, `version`), `help --man`, `completion SHELL`
    /// and usage errors the same way for every program of the house: data on
    /// `out`, errors on `err` (one line, then the usage; status 2). Bare
    /// `PROGRAM` of a root that only groups commands prints a short usage with
    /// its `commonCommands` (status 0), or without them is a usage error that
    /// shows the help. `showManual` shows the man page's roff (a program may
    /// render it on a terminal); by default it is printed on `out`.
    package func dispatch(_ arguments: [String], out: (String) -> Void, err: (String) -> Void,
                          showManual: ((String) -> Void)? = nil) -> Dispatch {
        let configuration = root.configuration
        // `PROGRAM --version` needs the root's name and version only, not the tree:
        // the answer the parse would give, unless the root took the name itself.
        if arguments == ["--version"] || arguments == ["-V"], !root.declarations.declares(long: "version"),
           !root.declarations.options.contains(where: { $0.short == "V" }) {
            out(versionLine)
            return .finished(status: 0)
        }
        if arguments.isEmpty, !configuration.commonCommands.isEmpty {
            out(shortUsage())
            return .finished(status: 0)
        }
        let parser = self.parser
        let outcome: Outcome
        do { outcome = try parse(arguments, with: parser) } catch {
            err(usageMessage(error, parser: parser))
            return .finished(status: 2)
        }
        switch outcome {
        case .version:
            out(versionLine)
        case .manual:
            let page = ManPage.render(root: spec, version: configuration.version ?? "", date: configuration.manual?.date ?? "",
                                      extraSections: configuration.manual?.sections ?? [])
            if let showManual { showManual(page) } else { out(page) }
        case .help(let path):
            if arguments.isEmpty {
                err(parser.help(for: path) + "\n")
                return .finished(status: 2)
            }
            out(parser.help(for: path) + "\n")
        case .run(let invocation):
            if invocation.command is VersionCommand {
                out(versionLine + root.configuration.versionDetails.map { $0 + "\n" }.joined())
            } else if let completion = invocation.command as? CompletionCommand {
                out(completion.script(for: self))
            } else {
                return .run(invocation)
            }
        }
        return .finished(status: 0)
    }

    /// "chatctl 0.1.0\n": what `--version`, `-V` and `version` print.
    var versionLine: String { "\(root.configuration.name) \(root.configuration.version ?? "")\n" }

    /// What a bare `PROGRAM` prints: the usage, the common commands with their
    /// abstracts, and where the rest is.
    package func shortUsage() -> String {
        let configuration = root.configuration
        let program = configuration.name
        var lines = ["usage: \(program) <command> [<options>]", "", configuration.abstract, "", "Common commands:"]
        for name in configuration.commonCommands {
            guard let type = configuration.subcommands.first(where: { $0.configuration.name == name }) else {
                preconditionFailure("commonCommands names '\(name)', which is not a subcommand of \(program)")
            }
            lines.append(HelpFormatter.row(name, type.configuration.abstract))
        }
        lines += ["", TextWrapping.wrap("'\(program) help' lists every command; '\(program) help <command>' "
                                        + "(or '\(program) <command> --help') shows one, with examples.", indent: 0)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// "PROGRAM: what was wrong\nusage: PROGRAM CMD [--option <VALUE>] …\nexamples: PROGRAM CMD …\n"
    package func usageMessage(_ error: UsageError) -> String {
        usageMessage(error, parser: parser)
    }

    private func usageMessage(_ error: UsageError, parser: CommandLineParser) -> String {
        "\(root.configuration.name): \(error.message)\n\(parser.errorUsage(for: error.path))\n"
    }
}
