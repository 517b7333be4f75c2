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

    /// Its examples in the tree of `program`: the configuration's, unless a
    /// command every program lists (`completion`) writes them for each program.
    static func examples(program: String) -> [Example]
}

extension ParsableCommand {
    package func perform(with context: AnyObject) throws -> Int32? { nil }

    package static func examples(program: String) -> [Example] { configuration.examples }

    /// The declaration of this command and every command below it, as data
    /// (called on a program's root).
    package static var spec: CommandSpec { spec(program: configuration.name) }

    static func spec(program: String) -> CommandSpec {
        var spec = outline(program: program)
        spec.subcommands = configuration.subcommands.map { $0.spec(program: program) }
        return spec
    }

    /// This command with its members, and the commands below it named only:
    /// their members are filled in when a parse reaches them, so a run makes
    /// only the commands it names (each one made costs start-up time).
    package static var outline: CommandSpec { outline(program: configuration.name) }

    static func outline(program: String) -> CommandSpec {
        let members = declarations
        return CommandSpec(name: configuration.name, abstract: configuration.abstract,
                           discussion: configuration.discussion, arguments: members.arguments,
                           options: members.options, subcommands: configuration.subcommands.map { $0.stub(program: program) },
                           inheritedOptions: members.inheritedOptions, examples: examples(program: program),
                           refusedOptions: configuration.refusedOptions, aliases: configuration.aliases,
                           meanings: configuration.meanings)
    }

    /// Name, help text and examples only; the members come with `resolved()`.
    static func stub(program: String) -> CommandSpec {
        var spec = CommandSpec(name: configuration.name, abstract: configuration.abstract,
                               discussion: configuration.discussion, subcommands: configuration.subcommands.map { $0.stub(program: program) },
                               examples: examples(program: program), refusedOptions: configuration.refusedOptions,
                               aliases: configuration.aliases, meanings: configuration.meanings)
        spec.pendingMembers = PendingMembers { outline(program: program) }
        return spec
    }

    /// A value of this command with the parse's values in its properties.
    static func bound(to parsed: ParsedCommand) -> any ParsableCommand {
        let (command, members) = makeWithMembers()
        for member in members { member.bind(parsed) }
        return command
    }
}
