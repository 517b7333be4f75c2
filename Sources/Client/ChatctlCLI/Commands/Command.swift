import CommandLineKit

/// A chatctl command: its declaration (configuration and properties, see
/// `ParsableCommand`) and what it does. Adding one is a new file with a type
/// conforming to this, and its line in `Chatctl.configuration.subcommands`.
protocol Command: ParsableCommand {
    func run(_ context: CommandContext) throws -> ExitCode
}

extension Command {
    /// What `Chatctl.run` calls: the context is always a `CommandContext`.
    func perform(with context: AnyObject) throws -> Int32? {
        try run(context as! CommandContext).rawValue
    }
}
