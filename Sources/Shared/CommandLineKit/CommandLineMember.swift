/// One property wrapper of a declaration: what it declares, and how it takes its
/// value from a parse (into the storage it shares with the command's property).
struct CommandLineMember {
    enum Declaration {
        case option(OptionSpec, inherited: Bool)
        case argument(ArgumentSpec)
    }
    let declaration: Declaration
    let bind: (ParsedCommand) -> Void

    func declare(into declarations: inout MemberDeclarations) {
        switch declaration {
        case .option(let option, let inherited): declarations.add(option, inherited: inherited)
        case .argument(let argument): declarations.arguments.append(argument)
        }
    }
}
