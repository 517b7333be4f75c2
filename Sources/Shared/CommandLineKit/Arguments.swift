/// Every remaining positional value: `@Arguments("DIALOG", help: …) var
/// dialogs: [String]` (or of any `ExpressibleByArgument` type); none is fine
/// unless `isOptional: false`.
@propertyWrapper
package struct Arguments<Value: ExpressibleByArgument> {
    let spec: ArgumentSpec
    private let bound = BoundValue<[Value]>([])

    /// - Parameters:
    ///   - name: the name shown in help and errors, e.g. `DIALOG`.
    ///   - completion: what a shell offers (default: the type's, e.g. an enum's cases).
    package init(_ name: String, help: String, isOptional: Bool = true, completion: CompletionKind? = nil) {
        spec = ArgumentSpec(name, help: help, isOptional: isOptional, isRepeating: true, completion: .of(Value.self, given: completion),
                            rule: ValueRule.of(Value.self))
        MemberRegistry.register(.argument(spec)) { [spec, bound] parsed in
            bound.value = parsed.arguments(spec.name).map(Value.accepted)
        }
    }

    package var wrappedValue: [Value] { bound.value }
}
