/// One positional argument, declared once.
package struct ArgumentSpec: Sendable, Equatable {
    package var name: String          // metavar as shown, e.g. "SHELL"
    package var help: String
    package var isOptional: Bool
    package var isRepeating: Bool     // takes all remaining positional values
    package var completion: CompletionKind
    /// What a value must be beyond `completion`'s choices (a typed argument's); nil: any text.
    package var rule: ValueRule?
    package init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false, completion: CompletionKind = .none,
                rule: ValueRule? = nil) {
        self.name = name; self.help = help; self.isOptional = isOptional; self.isRepeating = isRepeating; self.completion = completion
        self.rule = rule
    }
}
