/// A required positional argument: `@Argument("DIALOG", help: …) var dialog: String`,
/// or of any `ExpressibleByArgument` type, whose values the parser alone accepts.
@propertyWrapper
package struct Argument<Value: ExpressibleByArgument> {
    let spec: ArgumentSpec
    private let bound = BoundValue<Value?>(nil)

    /// - Parameters:
    ///   - name: the name shown in help and errors, e.g. `SHELL`.
    ///   - completion: what a shell offers (default: the type's, e.g. an enum's cases).
    package init(_ name: String, help: String, completion: CompletionKind? = nil) {
        spec = ArgumentSpec(name, help: help, isOptional: false, isRepeating: false, completion: .of(Value.self, given: completion),
                            rule: ValueRule.of(Value.self))
        MemberRegistry.register(.argument(spec)) { [spec, bound] parsed in
            // The parser has refused a command line without it.
            bound.value = parsed.arguments(spec.name).first.map(Value.accepted)
        }
    }

    package var wrappedValue: Value {
        guard let value = bound.value else { preconditionFailure("\(spec.name) read before a command line was bound") }
        return value
    }
}
