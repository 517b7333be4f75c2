/// The result of binding argv to the declarations.
package struct ParsedCommand: Sendable, Equatable {
    /// e.g. ["chatctl", "login"]
    package var path: [String]
    /// Long names (no dashes) of the flags given.
    package var flags: Set<String>
    /// Every value given per value option (long name, no dashes), in order.
    package var optionValues: [String: [String]]
    /// Positional values per argument name.
    package var argumentValues: [String: [String]]

    package init(path: [String], flags: Set<String> = [], optionValues: [String: [String]] = [:], argumentValues: [String: [String]] = [:]) {
        self.path = path; self.flags = flags; self.optionValues = optionValues; self.argumentValues = argumentValues
    }

    package func flag(_ long: String) -> Bool { flags.contains(OptionSpec.bareName(long)) }
    /// Last value given for a value option (a repeated option: last wins).
    package func value(_ long: String) -> String? { optionValues[OptionSpec.bareName(long)]?.last }
    /// Every value given for a value option, in command-line order.
    package func values(_ long: String) -> [String] { optionValues[OptionSpec.bareName(long)] ?? [] }
    /// Positional values bound to the named argument.
    package func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }
}
