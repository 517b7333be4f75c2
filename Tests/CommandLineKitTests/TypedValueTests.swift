import CommandLineKit
import Testing

/// Colours by name: an enum of named cases needs nothing but the conformance.
enum Shade: String, CaseIterable, ExpressibleByArgument { case red, green, blue }

/// A type of its own, with its own words for what it takes.
struct Point: ExpressibleByArgument, Equatable {
    var x: Int, y: Int
    init(x: Int, y: Int) { self.x = x; self.y = y }
    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else { return nil }
        self.init(x: x, y: y)
    }
    static var expectedValue: String? { "a point like 3,4" }
    static func refusal(of text: String) -> String? {
        text.contains(";") ? "a point's numbers are parted by a comma, not a semicolon" : nil
    }
}

/// Every kind of typed member at once.
struct Paint: ParsableCommand {
    static let configuration = CommandConfiguration(name: "paint", abstract: "Paint points.")
    @Argument("SHADE", help: "The colour.")
    var shade: Shade
    @Arguments("POINT", help: "Where.")
    var points: [Point]
    @Option("coats", short: "n", metavar: "N", help: "Coats of paint.", range: 1...10)
    var coats: Int?
    @Option("dry", metavar: "MINUTES", help: "Minutes to dry.", range: 5...)
    var dry: Int?
    @Option("border", metavar: "SHADE", help: "The colour of the border.")
    var border: Shade?
    @Option("origin", metavar: "X,Y", help: "Start here; give it again for more.", repeatable: true)
    var origin: Point?
    @Option("note", metavar: "TEXT", help: "Any text.", completion: .file)
    var note: String?
}

/// A program whose one argument may be left out.
struct Fill: ParsableCommand {
    static let configuration = CommandConfiguration(name: "fill", abstract: "Fill one area.")
    @OptionalArgument("AT", help: "Where.")
    var at: Point?
}

@Suite("Options and arguments of a type, read once by the parser")
struct TypedValueTests {
    static let tree = CommandTree(root: Paint.self)
    static let fill = CommandTree(root: Fill.self)

    func command<T: ParsableCommand>(_ arguments: [String], as type: T.Type) throws -> T {
        guard case .run(let invocation) = try (type == Fill.self ? Self.fill : Self.tree).parse(arguments) else {
            Issue.record("\(arguments) did not parse to a command to run")
            throw UsageError(message: "not a run", path: [])
        }
        return try #require(invocation.command as? T)
    }

    @Test func goodValuesLandAsValuesOfTheirTypes() throws {
        let paint = try command(["blue", "1,2", "3,-4", "-n", "3", "--dry=5", "--border", "red", "--origin", "0,0", "--origin=9,9",
                                 "--note", "-x"], as: Paint.self)
        #expect(paint.shade == .blue)
        #expect(paint.points == [Point(x: 1, y: 2), Point(x: 3, y: -4)])
        #expect(paint.coats == 3 && paint.dry == 5 && paint.border == .red)
        #expect(paint.origin == Point(x: 9, y: 9) && paint.$origin.values == [Point(x: 0, y: 0), Point(x: 9, y: 9)])
        #expect(paint.note == "-x")
        #expect(paint.$coats.spelling == "--coats")
        let plain = try command(["green"], as: Paint.self)
        #expect(plain.points.isEmpty && plain.coats == nil && plain.border == nil && plain.$origin.values.isEmpty)
        #expect(try command(["5,6"], as: Fill.self).at == Point(x: 5, y: 6))
        #expect(try command([], as: Fill.self).at == nil)
    }

    @Test(arguments: [
        (["red", "-n", "many"], "invalid value 'many' for option '-n'; expected a whole number from 1 to 10"),
        (["red", "--coats", "11"], "invalid value '11' for option '--coats'; expected a whole number from 1 to 10"),
        (["red", "--coats=0"], "invalid value '0' for option '--coats'; expected a whole number from 1 to 10"),
        (["red", "--dry", "4"], "invalid value '4' for option '--dry'; expected a whole number, 5 or more"),
        (["red", "--dry", "9999999999999999999999"], "invalid value '9999999999999999999999' for option '--dry'; expected a whole number, 5 or more"),
        (["red", "--border", "gren"], "invalid value 'gren' for option '--border' (did you mean 'green'?)"),
        (["red", "--border", "purple"], "invalid value 'purple' for option '--border'; expected one of: red, green, blue"),
        (["red", "--origin", "1,2", "--origin", "3"], "invalid value '3' for option '--origin'; expected a point like 3,4"),
        (["purple"], "invalid value 'purple' for SHADE; expected one of: red, green, blue"),
        (["red", "1,2", "x,y"], "invalid value 'x,y' for POINT; expected a point like 3,4"),
        // The type's own reason, when it has one, instead of what it expects.
        (["red", "1;2"], "invalid value '1;2' for POINT: a point's numbers are parted by a comma, not a semicolon"),
        // What a user typed is quoted back inert.
        (["red", "--border", "\u{1B}[2Jred"], "invalid value '\\u{1B}[2Jred' for option '--border'; expected one of: red, green, blue"),
        (["red", "1,2\n"], "invalid value '1,2\\u{A}' for POINT; expected a point like 3,4"),
    ])
    func aBadValueIsAUsageErrorSayingWhatIsExpected(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message, path: ["paint"])) { try Self.tree.parse(arguments) }
    }

    @Test func anOptionalArgumentIsCheckedWhenGiven() {
        #expect(throws: UsageError(message: "invalid value 'here' for AT; expected a point like 3,4", path: ["fill"])) {
            try Self.fill.parse(["here"])
        }
    }

    @Test func helpWinsOverABadValue() throws {
        guard case .help(let path) = try Self.tree.parse(["red", "--coats", "lots", "--help"]) else {
            Issue.record("--help should win"); return
        }
        #expect(path == ["paint"])
    }

    @Test func aBadValueGoesToStandardErrorWithTheUsageAndStatus2() {
        var out = "", err = ""
        guard case .finished(let status) = Self.tree.dispatch(["red", "--coats", "x"], out: { out += $0 }, err: { err += $0 }) else {
            Issue.record("a bad value ran the command"); return
        }
        #expect(status == 2 && out.isEmpty)
        #expect(err.hasPrefix("paint: invalid value 'x' for option '--coats'; expected a whole number from 1 to 10\nusage: paint "))
    }

    /// Help and the man page read as for text; the type adds an enum's choices to completion.
    @Test func anEnumOffersItsCasesAndTheRestReadsAsText() throws {
        let spec = Paint.spec
        let border = try #require(spec.options.first { $0.long == "border" })
        #expect(border.completion == .choices(["red", "green", "blue"]))
        #expect(spec.arguments[0].completion == .choices(["red", "green", "blue"]))
        #expect(spec.options.first { $0.long == "coats" }?.completion == CompletionKind.none)
        #expect(spec.options.first { $0.long == "note" }?.completion == .file)
        let help = Self.tree.parser.help(for: ["paint"])
        #expect(help.contains("  --border <SHADE>        The colour of the border.\n"))
        #expect(help.contains("  -n, --coats <N>         Coats of paint.\n"))
        let zsh = CompletionScript.render(.zsh, root: spec)
        #expect(zsh.contains("'--border=[The colour of the border.]:SHADE:(red green blue)'"))
        #expect(zsh.contains("':SHADE:(red green blue)'"))
        #expect(try CompletionScriptTests.bashComplete("paint red --border g", root: Self.renamed(spec)) == ["green"])
        #expect(try CompletionScriptTests.bashComplete("paint ", root: Self.renamed(spec)) == ["red", "green", "blue"])
    }

    /// The bash harness calls the function `_chatctl`.
    static func renamed(_ spec: CommandSpec) -> CommandSpec {
        var spec = spec
        spec.name = "chatctl"
        return spec
    }

    @Test func aDeclarationCarriesItsRule() {
        let coats = Paint.spec.options.first { $0.long == "coats" }
        #expect(coats?.rule?.expected == "a whole number from 1 to 10")
        #expect(coats?.rule?.accepts("10") == true && coats?.rule?.accepts("+3") == true)
        #expect(coats?.rule?.accepts("11") == false && coats?.rule?.accepts("") == false)
        // Text takes any value: no rule, as before.
        #expect(Paint.spec.options.first { $0.long == "note" }?.rule == nil)
        #expect(ValueRule(expected: "x") { _ in true } == ValueRule(expected: "x") { _ in false })
    }
}
