/// An option that takes a value of a type: `@Option("limit", short: "n", metavar: "N",
/// help: …, range: 1...100) var limit: Int = 20` reads `--limit N`, `--limit=N` or `-n N`;
/// the parser refuses a value that is not one of the type (or not in `range`), so
/// the property holds only values. Its initial value is the default, which help, the
/// man page and completions show ("(default: 20)"); an optional property without one
/// (`var limit: Int?`) is nil when the option is not given, for options whose absence
/// means something of its own (the config file's value, the environment's). Given more
/// than once, the last value wins, and `$limit.values` has them all (declare such an
/// option `repeatable`). An enum of named cases offers and takes only its cases.
@propertyWrapper
package struct Option<Value: OptionValue> {
    let spec: OptionSpec
    private let fallback: Value
    private let bound = BoundValue<[Value.Given]>([])

    /// - Parameters:
    ///   - wrappedValue: the default, when the property is declared with one.
    ///   - name: the long name, without dashes.
    ///   - completion: what a shell offers (default: the type's, e.g. an enum's cases);
    ///     `.choices` also restricts the value.
    ///   - inherited: also accepted by every command below this one (e.g. `--config`).
    ///   - repeatable: meant to be given several times (`$name.values`).
    ///   - aliases: old long names still read as this option, shown nowhere.
    ///   - hidden: read, but shown nowhere (an old option kept working).
    package init(wrappedValue: Value, _ name: String, short: Character? = nil, metavar: String, help: String,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false) where Value: Sendable {
        self.init(wrappedValue, shown: Self.shown(wrappedValue), name, short: short, metavar: metavar, help: help, completion: completion,
                  inherited: inherited, repeatable: repeatable, rule: ValueRule.of(Value.Given.self), aliases: aliases, hidden: hidden)
    }

    /// An option with no default: nil when not given.
    package init(_ name: String, short: Character? = nil, metavar: String, help: String,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false) where Value: ExpressibleByNilLiteral {
        self.init(nil, shown: nil, name, short: short, metavar: metavar, help: help, completion: completion, inherited: inherited,
                  repeatable: repeatable, rule: ValueRule.of(Value.Given.self), aliases: aliases, hidden: hidden)
    }

    /// An option with a default whose values must lie in `range`, e.g. `range: 1...100` or `range: 1...`.
    package init(wrappedValue: Value, _ name: String, short: Character? = nil, metavar: String, help: String,
                 range: some ValueRange<Value.Given>, completion: CompletionKind? = nil, inherited: Bool = false,
                 repeatable: Bool = false, aliases: [String] = [], hidden: Bool = false) where Value: Sendable, Value.Given: Sendable {
        self.init(wrappedValue, shown: Self.shown(wrappedValue), name, short: short, metavar: metavar, help: help, completion: completion,
                  inherited: inherited, repeatable: repeatable, rule: ValueRule.of(Value.Given.self, in: range), aliases: aliases,
                  hidden: hidden)
    }

    /// An option with no default whose values must lie in `range`.
    package init(_ name: String, short: Character? = nil, metavar: String, help: String, range: some ValueRange<Value.Given>,
                 completion: CompletionKind? = nil, inherited: Bool = false, repeatable: Bool = false,
                 aliases: [String] = [], hidden: Bool = false) where Value: ExpressibleByNilLiteral, Value.Given: Sendable {
        self.init(nil, shown: nil, name, short: short, metavar: metavar, help: help, completion: completion, inherited: inherited,
                  repeatable: repeatable, rule: ValueRule.of(Value.Given.self, in: range), aliases: aliases, hidden: hidden)
    }

    private init(_ fallback: Value, shown: (@Sendable () -> String)?, _ name: String, short: Character?, metavar: String, help: String,
                 completion: CompletionKind?, inherited: Bool, repeatable: Bool, rule: ValueRule?, aliases: [String], hidden: Bool) {
        self.fallback = fallback
        spec = OptionSpec(name, short: short, kind: .value(metavar: metavar), help: help, defaultValue: shown,
                          completion: .of(Value.Given.self, given: completion), isRepeatable: repeatable, rule: rule,
                          aliases: aliases, isHidden: hidden)
        MemberRegistry.register(.option(spec, inherited: inherited)) { [spec, bound] parsed in
            bound.value = parsed.values(spec.long).map(Value.Given.accepted)
        }
    }

    /// How help shows a default: spelt only when help is shown (a value made text in
    /// generic code costs a search of the conformances, at every start otherwise).
    private static func shown(_ value: Value) -> (@Sendable () -> String)? where Value: Sendable {
        guard value.given != nil else { return nil }
        return { value.given?.defaultValueDescription ?? "" }
    }

    /// The last value given, or else the default (nil for an optional).
    package var wrappedValue: Value { bound.value.last.map(Value.init(given:)) ?? fallback }

    /// Every value given, in command-line order.
    package var values: [Value.Given] { bound.value }

    /// `$limit.spelling` is `--limit`: for error messages about the value.
    package var projectedValue: Option { self }

    /// How the option is spelt on the command line, e.g. `--limit`.
    package var spelling: String { spec.longSpelling }
}
