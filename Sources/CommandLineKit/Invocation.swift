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
