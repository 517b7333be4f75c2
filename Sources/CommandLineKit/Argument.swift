/// A required positional argument: `@Argument("DIALOG", help: …) var dialog: String`.
@propertyWrapper
package struct Argument {
    let spec: ArgumentSpec
    private let bound = BoundValue("")

    /// - Parameter name: the name shown in help and errors, e.g. `SHELL`.
    package init(_ name: String, help: String, completion: CompletionKind = .none) {
        spec = ArgumentSpec(name, help: help, completion: completion)
        MemberRegistry.register(.argument(self))
    }

    package var wrappedValue: String { bound.value }

    func bind(from parsed: ParsedCommand) {
        // The parser has refused a command line without it.
        bound.value = parsed.arguments(spec.name).first ?? ""
    }
}
