/// One property wrapper of a declaration.
enum CommandLineMember {
    case flag(Flag)
    case option(Option)
    case argument(Argument)
    case arguments(Arguments)
    case optionalArgument(OptionalArgument)

    func declare(into declarations: inout MemberDeclarations) {
        switch self {
        case .flag(let flag): declarations.add(flag.spec, inherited: flag.inherited)
        case .option(let option): declarations.add(option.spec, inherited: option.inherited)
        case .argument(let argument): declarations.arguments.append(argument.spec)
        case .arguments(let arguments): declarations.arguments.append(arguments.spec)
        case .optionalArgument(let argument): declarations.arguments.append(argument.spec)
        }
    }

    func bind(from parsed: ParsedCommand) {
        switch self {
        case .flag(let flag): flag.bind(from: parsed)
        case .option(let option): option.bind(from: parsed)
        case .argument(let argument): argument.bind(from: parsed)
        case .arguments(let arguments): arguments.bind(from: parsed)
        case .optionalArgument(let argument): argument.bind(from: parsed)
        }
    }
}
