/// A positional argument that may be left out: `@OptionalArgument("DIALOG", help: …)
/// var dialog: String?` (shown as `[DIALOG]`), or of any `ExpressibleByArgument`
/// type; nil when not given.
@propertyWrapper
package struct OptionalArgument<Value: ExpressibleByArgument> {
    let spec: ArgumentSpec
    private let bound = BoundValue<Value?>(nil)

    /// - Parameters:
    ///   - name: the name shown in help and errors, e.g. `DIALOG`.
    ///   - completion: what a shell offers (default: the type's, e.g. an enum's cases).
    package init(_ name: String, help: String, completion: CompletionKind? = nil) {
        spec = ArgumentSpec(name, help: help, isOptional: true, isRepeating: false, completion: .of(Value.self, given: completion),
                            rule: ValueRule.of(Value.self))
        MemberRegistry.register(.argument(spec)) { [spec, bound] parsed in
            bound.value = parsed.arguments(spec.name).first.map(Value.accepted)
        }
    }

    package var wrappedValue: Value? { bound.value }
}
