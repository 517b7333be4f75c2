import CommandLineKit
import Testing

/// Members two commands share: declared once, held by each as a property.
private struct Target {
    @Argument var name: String
    @Flag var json: Bool

    init(what: String) {
        _name = Argument("NAME", help: "The \(what).")
        _json = Flag("json", help: "As JSON.")
    }
}

private struct Grouped: ParsableCommand {
    static let configuration = CommandConfiguration(name: "grouped", abstract: "Holds a group.", subcommands: [Open.self, Close.self])
}

private struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(name: "open", abstract: "Open one.")
    @Flag("force", help: "Even if open.")
    var force: Bool
    let target = Target(what: "thing to open")
    @Option("mode", metavar: "M", help: "How.")
    var mode: String?
}

private struct Close: ParsableCommand {
    static let configuration = CommandConfiguration(name: "close", abstract: "Close one.")
    let target = Target(what: "thing to close")
}

@Suite("Members declared by a group a command holds")
struct OptionGroupTests {
    static let tree = CommandTree(root: Grouped.self)

    @Test func aGroupDeclaresItsMembersInThePropertysPlace() {
        let open = Grouped.spec.subcommands[0]
        #expect(open.arguments.map(\.name) == ["NAME"])
        #expect(open.arguments.map(\.help) == ["The thing to open."])
        #expect(open.options.map(\.long) == ["force", "json", "mode"])
        #expect(Grouped.spec.subcommands[1].arguments.map(\.help) == ["The thing to close."])
    }

    @Test func theGroupsPropertiesHoldTheParsedValues() throws {
        guard case .run(let invocation) = try Self.tree.parse(["open", "door", "--json", "--mode", "wide"]) else {
            Issue.record("open did not parse to a command to run")
            return
        }
        let open = try #require(invocation.command as? Open)
        #expect(open.target.name == "door")
        #expect(open.target.json)
        #expect(open.mode == "wide")
        #expect(!open.force)
    }
}
