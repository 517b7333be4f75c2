/// A positional argument that may be left out: `@OptionalArgument("DIALOG", help: …)
/// var dialog: String?` (shown as `[DIALOG]`); nil when not given.
@propertyWrapper
package struct OptionalArgument {
    let spec: ArgumentSpec
    private let bound = BoundValue<String?>(nil)

    /// - Parameter name: the name shown in help and errors, e.g. `DIALOG`.
    package init(_ name: String, help: String, completion: CompletionKind = .none) {
        spec = ArgumentSpec(name, help: help, isOptional: true, completion: completion)
        MemberRegistry.register(.optionalArgument(self))
    }

    package var wrappedValue: String? { bound.value }

    func bind(from parsed: ParsedCommand) {
        bound.value = parsed.arguments(spec.name).first
    }
}
