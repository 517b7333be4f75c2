import Foundation
import Testing
import CommandLineKit

/// A program with examples, old option names, a refused option, a `version`
/// command and common commands for its bare run.
struct Shop: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "shop", abstract: "A shop.", subcommands: [Buy.self, VersionCommand.self, CompletionCommand.self], version: "2.0",
        manual: .init(date: "d", sections: [ManPage.Section(title: "Exit status", body: "0: bought."),
                                             ManPage.Section(title: "See also", body: "till(1)")]),
        examples: [Example("Buy two apples", "shop buy apple -n 2")],
        commonCommands: ["buy"], meanings: ["order": "buy --json"])
}

struct Buy: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "buy", abstract: "Buy something.",
        examples: [Example("Buy two apples", "shop buy apple -n 2"),
                   Example("Buy pears, and say so in JSON, which is a long comment that wraps at the help's width of eighty columns", "shop buy pear --json")],
        refusedOptions: [RefusedOption("card", message: "buy takes no card number on the command line; use --card-file")],
        aliases: ["purchase"])
    @Argument("ITEM", help: "What.")
    var item: String
    @Option("limit", short: "n", metavar: "N", help: "How many.", aliases: ["count", "quantity"])
    var limit: Int?
    @Option("via", metavar: "WAY", help: "The old way.", hidden: true)
    var via: String?
    @Flag("json", help: "As JSON.", aliases: ["machine"])
    var json: Bool
}

@Suite struct ExamplesAndAliasesTests {
    static let tree = CommandTree(root: Shop.self)

    func dispatch(_ arguments: [String], manual: ((String) -> Void)? = nil) -> (status: Int32, out: String, err: String) {
        var out = "", err = ""
        let result = Self.tree.dispatch(arguments, out: { out += $0 }, err: { err += $0 }, showManual: manual)
        guard case .finished(let status) = result else { return (-1, out, err) }
        return (status, out, err)
    }

    func buy(_ arguments: [String]) throws -> Buy {
        guard case .run(let invocation) = try Self.tree.parse(["buy"] + arguments), let buy = invocation.command as? Buy else {
            throw UsageError(message: "no buy", path: [])
        }
        return buy
    }

    @Test func helpEndsWithExamplesAsCommentedCommandLines() {
        let help = Self.tree.parser.help(for: ["shop", "buy"])
        #expect(help.hasSuffix("""
            EXAMPLES:
              # Buy two apples
              shop buy apple -n 2

              # Buy pears, and say so in JSON, which is a long comment that wraps at the
              # help's width of eighty columns
              shop buy pear --json
            """))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func theManPageHasOneExamplesSectionBeforeSeeAlso() {
        let page = ManPage.render(root: Self.tree.spec, version: "2.0", date: "d",
                                  extraSections: Shop.configuration.manual!.sections)
        #expect(page.contains("""
            .SH "EXIT STATUS"
            .PP
            0: bought.
            .SH EXAMPLES
            .SS "shop"
            .PP
            Buy two apples
            .RS 4
            .nf
            shop buy apple \\-n 2
            .fi
            .RE
            .SS "shop buy"
            """))
        #expect(page.contains(".SS \"shop version\"\n.PP\nPrint the version\n.RS 4\n.nf\nshop version\n"))
        #expect(page.contains(".SS \"shop completion\"\n.PP\nComplete shop in every new bash\n"))
        #expect(page.hasSuffix(".fi\n.RE\n.SH \"SEE ALSO\"\n.PP\ntill(1)\n"))
    }

    @Test func oldNamesAndHiddenOptionsAreReadButShownNowhere() throws {
        #expect(try buy(["apple", "--count", "3"]).limit == 3)
        #expect(try buy(["apple", "--quantity=4"]).limit == 4)
        #expect(try buy(["apple", "-n", "5", "--machine"]).json)
        #expect(try buy(["apple", "--via", "cart"]).via == "cart")
        let help = Self.tree.parser.help(for: ["shop", "buy"])
        let page = ManPage.render(root: Self.tree.spec, version: "2.0", date: "d")
        for hidden in ["count", "quantity", "machine", "via"] {
            #expect(!help.contains("--" + hidden))
            #expect(!page.contains("\\-\\-" + hidden))
            for shell in CompletionScript.Shell.allCases {
                #expect(!CompletionScript.render(shell, root: Self.tree.spec).contains(hidden), "\(shell) offers \(hidden)")
            }
        }
        // A bad value is named as it was typed; a typo is steered to a shown name only.
        #expect(throws: UsageError.self) { try buy(["apple", "--count", "many"]) }
        #expect(dispatch(["buy", "apple", "--count", "many"]).err.hasPrefix("shop: invalid value 'many' for option '--count'"))
        #expect(dispatch(["buy", "apple", "--vi", "x"]).err.hasPrefix("shop: unknown option '--vi'\n"))
    }

    @Test(arguments: [["buy", "apple", "--card", "4111111111111111"], ["buy", "apple", "--card=4111111111111111"],
                      ["buy", "--card", "4111111111111111", "apple"], ["buy", "apple", "--via", "--card", "4111111111111111"]])
    func aRefusedOptionSaysWhyAndNeverQuotesItsValue(arguments: [String]) {
        let (status, out, err) = dispatch(arguments)
        #expect(status == 2 && out.isEmpty)
        #expect(!err.contains("4111"))
        if !arguments.contains("--via") {
            #expect(err == """
                shop: buy takes no card number on the command line; use --card-file
                usage: shop buy [--limit <N>] [--json] <ITEM>
                examples: shop buy apple -n 2
                          shop buy pear --json

                """)
        }
    }

    /// A command's old name still runs it and is shown nowhere; a typo near it, or a word the
    /// parent knows people mean something else by, is steered to the current spelling.
    @Test func anOldCommandNameRunsAndIsShownNowhere() throws {
        guard case .run(let invocation) = try Self.tree.parse(["purchase", "apple", "-n", "3"]) else {
            Issue.record("did not run"); return
        }
        #expect(invocation.path == ["shop", "buy"] && (invocation.command as? Buy)?.limit == 3)
        #expect(!Self.tree.parser.help(for: ["shop"]).contains("purchase"))
        #expect(!ManPage.render(root: Self.tree.spec, version: "2.0", date: "d").contains("purchase"))
        for shell in CompletionScript.Shell.allCases {
            #expect(!CompletionScript.render(shell, root: Self.tree.spec).contains("purchase"), "\(shell) offers it")
        }
        #expect(dispatch(["purchse", "apple"]).err.hasPrefix("shop: unknown command 'purchse' (did you mean 'buy'?)\n"))
        #expect(dispatch(["order", "apple"]).err.hasPrefix("shop: unknown command 'order' (did you mean 'shop buy --json'?)\n"))
        #expect(dispatch(["odrer"]).err.hasPrefix("shop: unknown command 'odrer' (did you mean 'shop buy --json'?)\n"))
    }

    @Test(arguments: [["--version"], ["-V"], ["version"]])
    func theVersionHasThreeSpellings(arguments: [String]) {
        #expect(dispatch(arguments) == (0, "shop 2.0\n", ""))
    }

    @Test func theVersionIsInHelpAndCompletionsWithItsShortSpelling() {
        #expect(Self.tree.parser.help(for: ["shop"]).contains("  -V, --version           Show the version.\n"))
        #expect(CompletionScript.render(.bash, root: Self.tree.spec).contains("--version -V"))
        #expect(CompletionScript.render(.zsh, root: Self.tree.spec).contains("'(- *)-V[Show the version.]'"))
    }

    @Test func aBareRunListsTheCommonCommands() {
        #expect(dispatch([]) == (0, """
            usage: shop <command> [<options>]

            A shop.

            Common commands:
              buy                     Buy something.

            'shop help' lists every command; 'shop help <command>' (or 'shop <command>
            --help') shows one, with examples.

            """, ""))
    }

    @Test func theManPageGoesWhereTheProgramShowsIt() {
        var shown = ""
        let (status, out, _) = dispatch(["help", "--man"]) { shown = $0 }
        #expect(status == 0 && out.isEmpty)
        #expect(shown.hasPrefix(".TH \"SHOP\" 1"))
        #expect(dispatch(["help", "--man"]).out == shown)
    }
}
