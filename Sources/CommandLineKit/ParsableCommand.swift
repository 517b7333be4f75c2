/// A command: a type whose static configuration names it and lists its
/// subcommands, and whose properties declare its options and arguments. The
/// program's root command type is the whole tree: parsing, help, usage
/// errors, completion scripts and the man page all come from it.
package protocol ParsableCommand: ParsableArguments, SendableMetatype {
    static var configuration: CommandConfiguration { get }

    /// Runs this command with what its program hands every command (its own
    /// type, erased here), or nil when the command does not run (a group). A
    /// program's command protocol implements it in an extension, so running the
    /// command named is a call through the witness table: casting to that
    /// protocol instead scans every conformance in the binary (start-up time).
    func perform(with context: AnyObject) throws -> Int32?
}

extension ParsableCommand {
    package func perform(with context: AnyObject) throws -> Int32? { nil }

    /// The declaration of this command and every command below it, as data.
    package static var spec: CommandSpec {
        var spec = outline
        spec.subcommands = configuration.subcommands.map { $0.spec }
        return spec
    }

    /// This command with its members, and the commands below it named only:
    /// their members are filled in when a parse reaches them, so a run makes
    /// only the commands it names (each one made costs start-up time).
    package static var outline: CommandSpec {
        let members = declarations
        return CommandSpec(name: configuration.name, abstract: configuration.abstract,
                           discussion: configuration.discussion, arguments: members.arguments,
                           options: members.options, subcommands: configuration.subcommands.map { $0.stub },
                           inheritedOptions: members.inheritedOptions)
    }

    /// Name and help text only; the members come with `resolved()`.
    static var stub: CommandSpec {
        var spec = CommandSpec(name: configuration.name, abstract: configuration.abstract,
                               discussion: configuration.discussion, subcommands: configuration.subcommands.map { $0.stub })
        spec.pendingMembers = PendingMembers { outline }
        return spec
    }

    /// A value of this command with the parse's values in its properties.
    static func bound(to parsed: ParsedCommand) -> any ParsableCommand {
        let (command, members) = makeWithMembers()
        for member in members { member.bind(parsed) }
        return command
    }
}
