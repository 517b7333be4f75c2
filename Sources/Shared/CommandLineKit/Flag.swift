/// A flag: `@Flag("json", help: …) var json: Bool` is true when `--json` is given.
@propertyWrapper
package struct Flag {
    let spec: OptionSpec
    private let bound = BoundValue(false)

    /// - Parameters:
    ///   - name: the long name, without dashes.
    ///   - inherited: also accepted by every command below this one (e.g. `--verbose`).
    ///   - aliases: old long names still read as this flag, shown nowhere.
    ///   - hidden: read, but shown nowhere (an old flag kept working).
    package init(_ name: String, short: Character? = nil, help: String, inherited: Bool = false, aliases: [String] = [], hidden: Bool = false) {
        spec = OptionSpec(name, short: short, help: help, aliases: aliases, isHidden: hidden)
        MemberRegistry.register(.option(spec, inherited: inherited)) { [spec, bound] parsed in
            bound.value = parsed.flag(spec.long)
        }
    }

    package var wrappedValue: Bool { bound.value }
}
