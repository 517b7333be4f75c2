/// An option that takes a value: `@Option("login", metavar: "NAME", …) var
/// login: String?` reads `--login NAME` or `--login=NAME`; given more than
/// once, the last value wins, and `$name.values` has them all (declare such an
/// option `repeatable`).
@propertyWrapper
package struct Option {
    let spec: OptionSpec
    let inherited: Bool
    private let bound = BoundValue<[String]>([])

    /// - Parameters:
    ///   - name: the long name, without dashes.
    ///   - completion: what a shell offers; `.choices` also restricts the value.
    ///   - inherited: also accepted by every command below this one (e.g. `--config`).
    ///   - repeatable: meant to be given several times (`$name.values`).
    package init(_ name: String, short: Character? = nil, metavar: String, help: String,
                completion: CompletionKind = .none, inherited: Bool = false, repeatable: Bool = false) {
        spec = OptionSpec(name, short: short, kind: .value(metavar: metavar), help: help, completion: completion,
                          isRepeatable: repeatable)
        self.inherited = inherited
        MemberRegistry.register(.option(self))
    }

    package var wrappedValue: String? { bound.value.last }

    /// Every value given, in command-line order.
    package var values: [String] { bound.value }

    /// `$limit.spelling` is `--limit`: for error messages about the value.
    package var projectedValue: Option { self }

    /// How the option is spelt on the command line, e.g. `--limit`.
    package var spelling: String { spec.longSpelling }

    func bind(from parsed: ParsedCommand) {
        bound.value = parsed.values(spec.long)
    }
}
