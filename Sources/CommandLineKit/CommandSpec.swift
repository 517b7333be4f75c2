// CONTRACT STUB — to be replaced by the real implementation (keep these signatures).

/// What the shell should offer when completing a value.
public enum CompletionKind: Sendable, Equatable {
    case none, file, directory
    case choices([String])
}

/// One option, declared once: parsing, help, usage errors and completions all come from it.
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `--json`
        case flag
        /// `--login NAME` or `--login=NAME`
        case value(metavar: String)
    }
    public var long: String
    public var short: Character?
    public var kind: Kind
    public var help: String
    public var completion: CompletionKind
    public init(_ long: String, short: Character? = nil, kind: Kind = .flag, help: String, completion: CompletionKind = .none) {
        self.long = long; self.short = short; self.kind = kind; self.help = help; self.completion = completion
    }
}

public struct ArgumentSpec: Sendable, Equatable {
    public var name: String          // metavar as shown, e.g. "SHELL"
    public var help: String
    public var isOptional: Bool
    public var isRepeating: Bool     // takes all remaining positional values
    public var completion: CompletionKind
    public init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false, completion: CompletionKind = .none) {
        self.name = name; self.help = help; self.isOptional = isOptional; self.isRepeating = isRepeating; self.completion = completion
    }
}

public struct CommandSpec: Sendable, Equatable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var subcommands: [CommandSpec]
    /// Options accepted by this command and every command below it (e.g. --config).
    public var inheritedOptions: [OptionSpec]
    public init(name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], subcommands: [CommandSpec] = [], inheritedOptions: [OptionSpec] = []) {
        self.name = name; self.abstract = abstract; self.discussion = discussion; self.arguments = arguments
        self.options = options; self.subcommands = subcommands; self.inheritedOptions = inheritedOptions
    }
}

/// The result of binding argv to the declarations.
public struct ParsedCommand: Sendable, Equatable {
    /// e.g. ["chatctl", "login"]
    public var path: [String]
    public func flag(_ long: String) -> Bool { fatalError("stub") }
    /// Last value given for a value option.
    public func value(_ long: String) -> String? { fatalError("stub") }
    /// Positional values bound to the named argument.
    public func arguments(_ name: String) -> [String] { fatalError("stub") }
}

public enum ParseOutcome: Sendable, Equatable {
    case run(ParsedCommand)
    /// `--help`, `-h` or `help CMD…`: print the help of this command path.
    case help(path: [String])
    case version
}

public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line, e.g. "unknown option '--jsn' (did you mean '--json'?)"
    public var message: String
    /// Command path whose usage applies, e.g. ["chatctl", "login"].
    public var path: [String]
    public var description: String { message }
}

public struct CommandLineParser: Sendable {
    public init(root: CommandSpec) { fatalError("stub") }
    public func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome { fatalError("stub") }
    /// Full help text for a command path (usage, abstract, arguments, options, subcommands).
    public func help(for path: [String]) -> String { fatalError("stub") }
    /// One-line usage, e.g. "usage: chatctl login [--login NAME] [--json] ..."
    public func usage(for path: [String]) -> String { fatalError("stub") }
}

public enum CompletionScript {
    public enum Shell: String, Sendable, CaseIterable { case bash, zsh, fish }
    public static func render(_ shell: Shell, root: CommandSpec) -> String { fatalError("stub") }
}
