/// A flag: `@Flag("json", help: …) var json: Bool` is true when `--json` is given.
@propertyWrapper
package struct Flag {
    let spec: OptionSpec
    let inherited: Bool
    private let bound = BoundValue(false)

    /// - Parameters:
    ///   - name: the long name, without dashes.
    ///   - inherited: also accepted by every command below this one (e.g. `--verbose`).
    package init(_ name: String, short: Character? = nil, help: String, inherited: Bool = false) {
        spec = OptionSpec(name, short: short, help: help)
        self.inherited = inherited
        MemberRegistry.register(.flag(self))
    }

    package var wrappedValue: Bool { bound.value }

    func bind(from parsed: ParsedCommand) {
        bound.value = parsed.flag(spec.long)
    }
}
