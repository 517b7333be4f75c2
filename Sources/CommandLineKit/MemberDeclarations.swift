/// What the members of one `ParsableArguments` type declare, in property order.
struct MemberDeclarations {
    var options: [OptionSpec] = []
    var inheritedOptions: [OptionSpec] = []
    var arguments: [ArgumentSpec] = []

    mutating func add(_ option: OptionSpec, inherited: Bool) {
        if inherited { inheritedOptions.append(option) } else { options.append(option) }
    }
}
