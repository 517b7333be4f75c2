/// One option, declared once: parsing, help, usage errors and completions all come from it.
package struct OptionSpec: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// `--json`
        case flag
        /// `--login NAME` or `--login=NAME`
        case value(metavar: String)
    }
    /// The long name without dashes (`"login"`); a leading `--` is tolerated and dropped.
    package var long: String
    package var short: Character?
    package var kind: Kind
    package var help: String
    /// The value it has when not given, as a command line spells it; help, the man page
    /// and completions show it after `help` (`shownHelp`). nil: none to show.
    package var defaultValue: String? { defaultText?() }
    private var defaultText: (@Sendable () -> String)?
    /// What shells offer for its value, and the only values it takes when `.choices`.
    package var completion: CompletionKind {
        get { completionSource.kind }
        set { completionSource = CompletionSource(newValue) }
    }
    private var completionSource: CompletionSource
    /// A value option meant to be given several times (`--attach A --attach B`):
    /// shells offer it again after it was given once.
    package var isRepeatable: Bool
    /// What a value must be beyond `completion`'s choices (a typed option's); nil: any text.
    package var rule: ValueRule?
    /// Old long names (without dashes) still read as this option, shown nowhere:
    /// a renamed option keeps working (`--count` for `--limit`).
    package var aliases: [String]
    /// Read, but shown nowhere (help, man page, completions): an old option kept working.
    package var isHidden: Bool
    package init(_ long: String, short: Character? = nil, kind: Kind = .flag, help: String, defaultValue: String? = nil,
                 completion: CompletionKind = .none, isRepeatable: Bool = false, rule: ValueRule? = nil, aliases: [String] = [],
                 isHidden: Bool = false) {
        self.init(long, short: short, kind: kind, help: help, defaultValue: defaultValue.map { text -> @Sendable () -> String in { text } },
                  completion: CompletionSource(completion), isRepeatable: isRepeatable, rule: rule, aliases: aliases, isHidden: isHidden)
    }

    /// A typed option's: its default spelt and its completion asked of the type only when wanted (`CompletionSource`).
    init(_ long: String, short: Character?, kind: Kind, help: String, defaultValue: (@Sendable () -> String)?, completion: CompletionSource,
         isRepeatable: Bool, rule: ValueRule?, aliases: [String], isHidden: Bool) {
        self.long = OptionSpec.bareName(long); self.short = short; self.kind = kind; self.help = help; defaultText = defaultValue
        completionSource = completion; self.isRepeatable = isRepeatable; self.rule = rule; self.aliases = aliases.map(OptionSpec.bareName)
        self.isHidden = isHidden
    }

    package static func == (lhs: OptionSpec, rhs: OptionSpec) -> Bool {
        lhs.long == rhs.long && lhs.short == rhs.short && lhs.kind == rhs.kind && lhs.help == rhs.help
            && lhs.defaultValue == rhs.defaultValue && lhs.completion == rhs.completion && lhs.isRepeatable == rhs.isRepeatable && lhs.rule == rhs.rule
            && lhs.aliases == rhs.aliases && lhs.isHidden == rhs.isHidden
    }

    /// The help as shown: with the default, where there is one, at the end of its
    /// sentence ("Which page (default: 1).").
    package var shownHelp: String {
        guard let defaultValue else { return help }
        let note = "(default: \(defaultValue))"
        if help.isEmpty { return note }
        return help.hasSuffix(".") ? String(help.dropLast()) + " " + note + "." : help + " " + note
    }

    /// Whether `--name` is this option, by its name or an old one.
    func isSpelt(_ name: String) -> Bool { long == name || aliases.contains(name) }

    /// `--login`
    package var longSpelling: String { "--" + long }

    var takesValue: Bool {
        if case .value = kind { return true }
        return false
    }

    var metavar: String? {
        if case .value(let metavar) = kind { return metavar }
        return nil
    }

    static func bareName(_ name: String) -> String {
        name.hasPrefix("--") ? String(name.dropFirst(2)) : name
    }
}
