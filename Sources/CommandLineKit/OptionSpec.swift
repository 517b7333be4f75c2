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
    package init(_ long: String, short: Character? = nil, kind: Kind = .flag, help: String, completion: CompletionKind = .none,
                isRepeatable: Bool = false, rule: ValueRule? = nil) {
        self.init(long, short: short, kind: kind, help: help, completion: CompletionSource(completion), isRepeatable: isRepeatable, rule: rule)
    }

    /// A typed option's: its completion asked of the type only when wanted (`CompletionSource`).
    init(_ long: String, short: Character?, kind: Kind, help: String, completion: CompletionSource, isRepeatable: Bool, rule: ValueRule?) {
        self.long = OptionSpec.bareName(long); self.short = short; self.kind = kind; self.help = help; completionSource = completion
        self.isRepeatable = isRepeatable; self.rule = rule
    }

    package static func == (lhs: OptionSpec, rhs: OptionSpec) -> Bool {
        lhs.long == rhs.long && lhs.short == rhs.short && lhs.kind == rhs.kind && lhs.help == rhs.help
            && lhs.completion == rhs.completion && lhs.isRepeatable == rhs.isRepeatable && lhs.rule == rhs.rule
    }

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
