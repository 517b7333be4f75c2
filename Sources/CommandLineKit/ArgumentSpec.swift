/// One positional argument, declared once.
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
