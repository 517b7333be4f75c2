/// One command of the tree: the single declaration that parsing, help, usage
/// errors, shell completion and the man page are generated from.
package struct CommandSpec: Sendable, Equatable {
    package var name: String
    package var abstract: String
    package var discussion: String?
    package var arguments: [ArgumentSpec]
    package var options: [OptionSpec]
    package var subcommands: [CommandSpec]
    /// Options accepted by this command and every command below it (e.g. --config).
    package var inheritedOptions: [OptionSpec]
    /// Uses of the command, for its help and the man page.
    package var examples: [Example] = []
    /// Options it answers with an error that says why; shown nowhere.
    package var refusedOptions: [RefusedOption] = []
    /// Old names it still answers to; shown nowhere (`CommandConfiguration.aliases`).
    package var aliases: [String] = []
    /// Words that are none of its subcommands, with what they meant (`CommandConfiguration.meanings`).
    package var meanings: [String: String] = [:]
    /// For a command declared by a type: its options and arguments, made only
    /// when a parse or a document reaches it (see `ParsableCommand.outline`).
    var pendingMembers: PendingMembers?
    package init(name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], subcommands: [CommandSpec] = [], inheritedOptions: [OptionSpec] = [],
                 examples: [Example] = [], refusedOptions: [RefusedOption] = [], aliases: [String] = [],
                 meanings: [String: String] = [:]) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.arguments = arguments
        self.options = options; self.subcommands = subcommands; self.inheritedOptions = inheritedOptions
        self.examples = examples; self.refusedOptions = refusedOptions; self.aliases = aliases; self.meanings = meanings
    }

    /// Whether naming this command runs it even though it has subcommands
    /// (`chatctl dialogs` lists, `chatctl dialogs create` creates); a pure
    /// group, with nothing of its own, shows its help instead.
    package var runsItself: Bool { subcommands.isEmpty || !options.isEmpty || !arguments.isEmpty }

    /// The subcommand called `name` (or once called so: an alias), with its options and arguments.
    package func subcommand(named name: String) -> CommandSpec? {
        (subcommands.first { $0.name == name } ?? subcommands.first { $0.aliases.contains(name) })?.resolved()
    }

    /// This command with its options and arguments filled in.
    package func resolved() -> CommandSpec {
        pendingMembers?.resolve() ?? self
    }

    /// The chain of commands named by `path` (which starts with this command's
    /// name), or nil if some name in it is not declared.
    package func chain(for path: [String]) -> [CommandSpec]? {
        guard path.first == name else { return nil }
        var chain = [self]
        for name in path.dropFirst() {
            guard let next = chain[chain.count - 1].subcommand(named: name) else { return nil }
            chain.append(next)
        }
        return chain
    }

    /// Longest declared prefix of `path`; at least the root itself.
    func resolvedChain(for path: [String]) -> [CommandSpec] {
        var chain = [self]
        for name in path.dropFirst() {
            guard let next = chain[chain.count - 1].subcommand(named: name) else { break }
            chain.append(next)
        }
        return chain
    }

    /// Every command of the tree with its path, depth first, root first.
    package func allCommands() -> [(path: [String], chain: [CommandSpec])] {
        var result: [(path: [String], chain: [CommandSpec])] = []
        func visit(_ command: CommandSpec, _ path: [String], _ chain: [CommandSpec]) {
            result.append((path, chain))
            for sub in command.subcommands.map({ $0.resolved() }) { visit(sub, path + [sub.name], chain + [sub]) }
        }
        let root = resolved()
        visit(root, [name], [root])
        return result
    }
}

extension Array where Element == CommandSpec {
    /// Options valid with the last command of this chain: its own, then the
    /// inherited options of the chain, innermost first.
    package var validOptions: [OptionSpec] {
        guard let last else { return [] }
        var result = last.options
        for command in reversed() { result += command.inheritedOptions }
        return result
    }

    /// Inherited options coming from ancestors (not the last command's own), as help shows them.
    var globalOptions: [OptionSpec] {
        var result: [OptionSpec] = []
        for command in dropLast().reversed() { result += command.inheritedOptions }
        return result.filter { !$0.isHidden }
    }

    /// `validOptions` without the hidden ones: what completions offer.
    var shownOptions: [OptionSpec] { validOptions.filter { !$0.isHidden } }
}
