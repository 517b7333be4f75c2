import CommandLineKit
import Testing

/// Options whose defaults are their properties' initial values.
struct Brew: ParsableCommand {
    static let configuration = CommandConfiguration(name: "brew", abstract: "Brew tea.")
    @Option("cups", short: "n", metavar: "N", help: "Cups to brew.", range: 1...12)
    var cups = 2
    @Option("leaf", metavar: "SHADE", help: "The tea's colour")
    var leaf: Shade = .green
    @Option("steep", metavar: "MINUTES", help: "Minutes to steep.", range: 1...)
    var steep = 3
    @Option("pot", metavar: "X,Y", help: "Where the pot stands.")
    var pot = Point(x: 1, y: 2)
    @Option("note", metavar: "TEXT", help: "A note; none unless given.")
    var note: String?
}

extension Point {
    var defaultValueDescription: String { "\(x),\(y)" }
}

@Suite("Defaults declared with the option")
struct DefaultValueTests {
    static let tree = CommandTree(root: Brew.self)

    func brew(_ arguments: [String]) throws -> Brew {
        guard case .run(let invocation) = try Self.tree.parse(arguments) else { throw UsageError(message: "not a run", path: []) }
        return try #require(invocation.command as? Brew)
    }

    @Test func anOptionNotGivenHoldsItsDefaultAndAGivenOneItsValue() throws {
        let plain = try brew([])
        #expect(plain.cups == 2 && plain.leaf == .green && plain.steep == 3 && plain.pot == Point(x: 1, y: 2) && plain.note == nil)
        #expect(plain.$cups.values.isEmpty)
        let given = try brew(["-n", "5", "--leaf", "red", "--steep=7", "--pot", "3,4", "-n", "6"])
        #expect(given.cups == 6 && given.leaf == .red && given.steep == 7 && given.pot == Point(x: 3, y: 4))
        #expect(given.$cups.values == [5, 6])
    }

    @Test func aDefaultIsStillCheckedAgainstTheRangeWhenGiven() {
        #expect(throws: UsageError(message: "invalid value '13' for option '--cups'; expected a whole number from 1 to 12", path: ["brew"])) {
            try Self.tree.parse(["--cups", "13"])
        }
    }

    /// Help shows the default where its sentence ends, as it would be typed; an optional shows none.
    @Test func helpTheManPageAndCompletionsShowTheDefault() {
        let spec = Brew.spec
        #expect(spec.options.map(\.defaultValue) == ["2", "green", "3", "1,2", nil])
        let help = Self.tree.parser.help(for: ["brew"])
        #expect(help.contains("  -n, --cups <N>          Cups to brew (default: 2).\n"))
        #expect(help.contains("  --leaf <SHADE>          The tea's colour (default: green)\n"))
        #expect(help.contains("  --pot <X,Y>             Where the pot stands (default: 1,2).\n"))
        #expect(help.contains("  --note <TEXT>           A note; none unless given.\n"))
        let man = ManPage.render(root: spec, version: "1", date: "2026-01-01")
        #expect(man.contains("\nMinutes to steep (default: 3).\n"))
        #expect(CompletionScript.render(.zsh, root: spec).contains(#"'(-n --cups)--cups=[Cups to brew (default\: 2).]:N: '"#))
        #expect(CompletionScript.render(.fish, root: spec).contains("-l 'cups' -s 'n' -r -f -d 'Cups to brew (default: 2).'"))
    }

    @Test func aHandMadeSpecShowsTheDefaultItIsGiven() {
        let option = OptionSpec("port", kind: .value(metavar: "PORT"), help: "Port.", defaultValue: "5280")
        #expect(option.shownHelp == "Port (default: 5280).")
        #expect(OptionSpec("port", kind: .value(metavar: "PORT"), help: "Port.").shownHelp == "Port.")
        #expect(option != OptionSpec("port", kind: .value(metavar: "PORT"), help: "Port."))
    }
}
