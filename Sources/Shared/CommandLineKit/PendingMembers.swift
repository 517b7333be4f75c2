/// How a command type's members are made on demand. Not part of a spec's
/// value: two specs are equal when their names, texts and members are.
struct PendingMembers: Sendable, Equatable {
    let resolve: @Sendable () -> CommandSpec
    static func == (lhs: PendingMembers, rhs: PendingMembers) -> Bool { true }
}
