/// What the members of one `ParsableArguments` type declare, in property order.
struct MemberDeclarations {
    var options: [OptionSpec] = []
    var inheritedOptions: [OptionSpec] = []
    var arguments: [ArgumentSpec] = []

    /// Whether an option (its own or inherited) is called `--name`.
    func declares(long name: String) -> Bool {
        options.contains { $0.long == name } || inheritedOptions.contains { $0.long == name }
    }

    mutating func add(_ option: OptionSpec, inherited: Bool) {
        if inherited { inheritedOptions.append(option) } else { options.append(option) }
    }
}
