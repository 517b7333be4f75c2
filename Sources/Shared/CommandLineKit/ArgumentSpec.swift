/// One positional argument, declared once.
package struct ArgumentSpec: Sendable, Equatable {
    package var name: String          // metavar as shown, e.g. "SHELL"
    package var help: String
    package var isOptional: Bool
    package var isRepeating: Bool     // takes all remaining positional values
    /// What shells offer, and the only values it takes when `.choices`.
    package var completion: CompletionKind {
        get { completionSource.kind }
        set { completionSource = CompletionSource(newValue) }
    }
    private var completionSource: CompletionSource
    /// What a value must be beyond `completion`'s choices (a typed argument's); nil: any text.
    package var rule: ValueRule?
    package init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false, completion: CompletionKind = .none,
                rule: ValueRule? = nil) {
        self.init(name, help: help, isOptional: isOptional, isRepeating: isRepeating, completion: CompletionSource(completion), rule: rule)
    }

    /// A typed argument's: its completion asked of the type only when wanted (`CompletionSource`).
    init(_ name: String, help: String, isOptional: Bool, isRepeating: Bool, completion: CompletionSource, rule: ValueRule?) {
        self.name = name; self.help = help; self.isOptional = isOptional; self.isRepeating = isRepeating; completionSource = completion
        self.rule = rule
    }

    package static func == (lhs: ArgumentSpec, rhs: ArgumentSpec) -> Bool {
        lhs.name == rhs.name && lhs.help == rhs.help && lhs.isOptional == rhs.isOptional && lhs.isRepeating == rhs.isRepeating
            && lhs.completion == rhs.completion && lhs.rule == rhs.rule
    }
}
