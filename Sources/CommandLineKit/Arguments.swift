/// Every remaining positional value: `@Arguments("DIALOG", help: …) var
/// dialogs: [String]`; none is fine unless `isOptional: false`.
@propertyWrapper
package struct Arguments {
    let spec: ArgumentSpec
    private let bound = BoundValue<[String]>([])

    /// - Parameter name: the name shown in help and errors, e.g. `DIALOG`.
    package init(_ name: String, help: String, isOptional: Bool = true, completion: CompletionKind = .none) {
        spec = ArgumentSpec(name, help: help, isOptional: isOptional, isRepeating: true, completion: completion)
        MemberRegistry.register(.arguments(self))
    }

    package var wrappedValue: [String] { bound.value }

    func bind(from parsed: ParsedCommand) {
        bound.value = parsed.arguments(spec.name)
    }
}
