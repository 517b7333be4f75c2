/// One parsed command line: the commands it names, root first, bound.
package struct Invocation {
    /// e.g. ["chatctl", "outbox", "flush"]
    package let path: [String]
    package let commands: [any ParsableCommand]

    /// The command to run: the last one named.
    package var command: any ParsableCommand { commands[commands.count - 1] }

    /// The named command of type `T` (the root, for its inherited options).
    package func command<T: ParsableCommand>(_ type: T.Type) -> T? {
        for command in commands { if let match = command as? T { return match } }
        return nil
    }
}
