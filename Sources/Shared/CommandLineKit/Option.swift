/// An option that takes a value of a type: `@Option("limit", short: "n", metavar: "N",
/// help: …, range: 1...100) var limit: Int?` reads `--limit N`, `--limit=N` or `-n N`;
/// the parser refuses a value that is not one of the type (or not in `range`), so
/// the property holds only values. Given more than once, the last value wins, and
/// `$limit.values` has them all (declare such an option `repeatable`). An enum of
/// named cases offers and takes only its cases.
@propertyWrapper
package struct Option<Value: ExpressibleByArgument> {
    let spec: OptionSpec
    private let bound = BoundValue<[Value]>([])

    /// - Parameters:
    ///   - name: the long name, without dashes.
    ///   - completion: what a shell offers (default: the type's, e.g. an enum's cases);
    ///     `.choices` also restricts the value.
    ///   - inherited: also accepted by every command below this one (e.g. `--config`).
    ///   - repeatable: meant to be given several times (`$name.values`).
    ///   - aliases: old long names still read as this option, shown nowhere.
    ///   - hidden: read, but shown nowhere (an old option kept working).
    package init(_ name: String, short: Character? = nil, metavar: String, help: String,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false) {
        self.init(name, short: short, metavar: metavar, help: help, completion: completion, inherited: inherited,
                  repeatable: repeatable, rule: ValueRule.of(Value.self), aliases: aliases, hidden: hidden)
    }

    /// An option whose values must lie in `range`, e.g. `range: 1...100`.
    package init(_ name: String, short: Character? = nil, metavar: String, help: String, range: ClosedRange<Value>,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false)
        where Value: Comparable & Sendable {
        self.init(name, short: short, metavar: metavar, help: help, completion: completion, inherited: inherited,
                  repeatable: repeatable, rule: ValueRule.of(Value.self, from: range.lowerBound, to: range.upperBound),
                  aliases: aliases, hidden: hidden)
    }

    /// An option whose values must be at least `range`'s bound, e.g. `range: 1...`.
    package init(_ name: String, short: Character? = nil, metavar: String, help: String, range: PartialRangeFrom<Value>,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false)
        where Value: Comparable & Sendable {
        self.init(name, short: short, metavar: metavar, help: help, completion: completion, inherited: inherited,
                  repeatable: repeatable, rule: ValueRule.of(Value.self, from: range.lowerBound, to: nil), aliases: aliases, hidden: hidden)
    }

    private init(_ name: String, short: Character?, metavar: String, help: String, completion: CompletionKind?,
                 inherited: Bool, repeatable: Bool, rule: ValueRule?, aliases: [String], hidden: Bool) {
        spec = OptionSpec(name, short: short, kind: .value(metavar: metavar), help: help, completion: .of(Value.self, given: completion),
                          isRepeatable: repeatable, rule: rule, aliases: aliases, isHidden: hidden)
        MemberRegistry.register(.option(spec, inherited: inherited)) { [spec, bound] parsed in
            bound.value = parsed.values(spec.long).map(Value.accepted)
        }
    }

    package var wrappedValue: Value? { bound.value.last }

    /// Every value given, in command-line order.
    package var values: [Value] { bound.value }

    /// `$limit.spelling` is `--limit`: for error messages about the value.
    package var projectedValue: Option { self }

    /// How the option is spelt on the command line, e.g. `--limit`.
    package var spelling: String { spec.longSpelling }
}
