/// Where property wrappers announce themselves while a `ParsableArguments`
/// value is made: initial values run in declaration order, so the registry
/// ends up with the declaration in order, with no reflection (which would
/// cost start-up time) and no name written twice. Unchecked Sendable: only
/// the code inside `$collecting.withValue`, synchronously, ever touches one.
final class MemberRegistry: @unchecked Sendable {
    @TaskLocal static var collecting: MemberRegistry?

    var members: [CommandLineMember] = []

    static func register(_ declaration: CommandLineMember.Declaration, bind: @escaping (ParsedCommand) -> Void) {
        collecting?.members.append(CommandLineMember(declaration: declaration, bind: bind))
    }
}
