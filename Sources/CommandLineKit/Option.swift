/// An option whose value is text: `@Option("login", metavar: "NAME", …) var login:
/// String?`, a `TypedOption<String>`. It stays a type of its own, not generic,
/// because chatctl-sandbox and BenchLoad name it as one (`_ option: Option`), which
/// a generic type cannot be; once they no longer do, `TypedOption` can take its name.
@propertyWrapper
package struct Option {
    private let typed: TypedOption<String>

    /// See `TypedOption.init`.
    package init(_ name: String, short: Character? = nil, metavar: String, help: String,
                completion: CompletionKind = .none, inherited: Bool = false, repeatable: Bool = false) {
        typed = TypedOption(name, short: short, metavar: metavar, help: help, completion: completion,
                            inherited: inherited, repeatable: repeatable)
    }

    package var wrappedValue: String? { typed.wrappedValue }

    /// Every value given, in command-line order.
    package var values: [String] { typed.values }

    /// `$limit.spelling` is `--limit`: for error messages about the value.
    package var projectedValue: Option { self }

    /// How the option is spelt on the command line, e.g. `--limit`.
    package var spelling: String { typed.spelling }
}
