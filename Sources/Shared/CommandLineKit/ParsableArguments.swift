/// A type whose stored properties declare options and arguments with
/// `@Flag`, `@Option`, `@Argument` and `@Arguments`. The property is both the
/// declaration and the typed accessor, so reading an option that was never
/// declared, or misspelling one, does not compile. Members several commands
/// share are a plain struct of such properties that each command holds as a
/// property (`let target = Target()`), made while the command is made:
/// it declares them in that property's place, in the order it makes them.
package protocol ParsableArguments {
    /// Every property has its declaration as its default; values are bound
    /// after parsing. Creating a value must create its wrappers and nothing
    /// else that declares (they register with `MemberRegistry` as they are made).
    init()
}

extension ParsableArguments {
    /// A fresh value, and the members its properties declared, in declaration order.
    static func makeWithMembers() -> (Self, [CommandLineMember]) {
        let registry = MemberRegistry()
        let value = MemberRegistry.$collecting.withValue(registry) { Self() }
        return (value, registry.members)
    }

    static var declarations: MemberDeclarations {
        var declarations = MemberDeclarations()
        for member in makeWithMembers().1 { member.declare(into: &declarations) }
        return declarations
    }
}
