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
        get { completionOfType?() ?? givenCompletion }
        set { givenCompletion = newValue; completionOfType = nil }
    }
    private var givenCompletion: CompletionKind
    /// A typed option's, asked only when wanted (`CompletionKind.lazily`).
    private var completionOfType: (@Sendable () -> CompletionKind)?
    /// A value option meant to be given several times (`--attach A --attach B`):
    /// shells offer it again after it was given once.
    package var isRepeatable: Bool
    /// What a value must be beyond `completion`'s choices (a typed option's); nil: any text.
    package var rule: ValueRule?
    package init(_ long: String, short: Character? = nil, kind: Kind = .flag, help: String, completion: CompletionKind = .none,
                isRepeatable: Bool = false, rule: ValueRule? = nil) {
        self.long = OptionSpec.bareName(long); self.short = short; self.kind = kind; self.help = help; givenCompletion = completion
        self.isRepeatable = isRepeatable; self.rule = rule
    }

    /// `completion` made from the value's type only when help, a completion script or a
    /// value's check needs it (issue 11: an enum's cases, in generic code, cost a runtime
    /// search of the conformances at every start).
    init(_ long: String, short: Character?, kind: Kind, help: String, completion: @escaping @Sendable () -> CompletionKind,
         isRepeatable: Bool, rule: ValueRule?) {
        self.init(long, short: short, kind: kind, help: help, isRepeatable: isRepeatable, rule: rule)
        completionOfType = completion
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
