/// A program's commands, from its root command type: parses argv into values
/// of the command types named, with their options and arguments bound.
public struct CommandTree: Sendable {
    public let root: any ParsableCommand.Type
    /// Parses over the root's outline: only the commands named get reflected.
    public let parser: CommandLineParser

    public init(root: any ParsableCommand.Type) {
        self.root = root
        parser = CommandLineParser(root: root.outline)
    }

    /// The whole tree as data (for completion scripts and the man page).
    public var spec: CommandSpec { root.spec }

    public enum Outcome {
        /// Run `invocation.command`.
        case run(Invocation)
        /// `--help`, `-h` or `help CMD…`: print the help of this command path.
        case help(path: [String])
        case version
        /// `help --man`: print the man page.
        case manual
    }

    public func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
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

/// One parsed command line: the commands it names, root first, bound.
public struct Invocation {
    /// e.g. ["chatctl", "outbox", "flush"]
    public let path: [String]
    public let commands: [any ParsableCommand]

    /// The command to run: the last one named.
    public var command: any ParsableCommand { commands[commands.count - 1] }

    /// The named command of type `T` (the root, for its inherited options).
    public func command<T: ParsableCommand>(_ type: T.Type) -> T? {
        for command in commands { if let match = command as? T { return match } }
        return nil
    }
}
