/// The result of binding argv to the declarations.
public struct ParsedCommand: Sendable, Equatable {
    /// e.g. ["chatctl", "login"]
    public var path: [String]
    /// Long names (no dashes) of the flags given.
    public var flags: Set<String>
    /// Every value given per value option (long name, no dashes), in order.
    public var optionValues: [String: [String]]
    /// Positional values per argument name.
    public var argumentValues: [String: [String]]

    public init(path: [String], flags: Set<String> = [], optionValues: [String: [String]] = [:], argumentValues: [String: [String]] = [:]) {
        self.path = path; self.flags = flags; self.optionValues = optionValues; self.argumentValues = argumentValues
    }

    public func flag(_ long: String) -> Bool { flags.contains(OptionSpec.bareName(long)) }
    /// Last value given for a value option (a repeated option: last wins).
    public func value(_ long: String) -> String? { optionValues[OptionSpec.bareName(long)]?.last }
    /// Every value given for a value option, in command-line order.
    public func values(_ long: String) -> [String] { optionValues[OptionSpec.bareName(long)] ?? [] }
    /// Positional values bound to the named argument.
    public func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }
}
