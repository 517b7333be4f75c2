import CommandLineKit
import Testing

@Suite("Parsing argv against the command tree")
struct ParsingTests {
    struct Good: CustomTestStringConvertible, Sendable {
        var argv: [String]
        var expected: ParseOutcome
        var testDescription: String { "chatctl " + argv.joined(separator: " ") }
    }

    static func run(_ path: [String], flags: Set<String> = [], values: [String: [String]] = [:], arguments: [String: [String]] = [:]) -> ParseOutcome {
        .run(ParsedCommand(path: ["chatctl"] + path, flags: flags, optionValues: values, argumentValues: arguments))
    }

    static let good: [Good] = [
        Good(argv: ["login", "--login", "alice", "--json"], expected: run(["login"], flags: ["json"], values: ["login": ["alice"]])),
        Good(argv: ["login", "--login=alice", "--full-name", "Alice A"], expected: run(["login"], values: ["login": ["alice"], "full-name": ["Alice A"]])),
        // Inherited options before and after the command name.
        Good(argv: ["--config", "/c", "login", "--state-dir", "/s"], expected: run(["login"], values: ["config": ["/c"], "state-dir": ["/s"]])),
        // Bundled short flags, short value option with separate and joined value.
        Good(argv: ["login", "-jv", "-l", "bob"], expected: run(["login"], flags: ["json", "verbose"], values: ["login": ["bob"]])),
        Good(argv: ["login", "-vlbob"], expected: run(["login"], flags: ["verbose"], values: ["login": ["bob"]])),
        // Repeated value option: every value kept, value(_:) gives the last.
        Good(argv: ["login", "--login", "a", "--login=b"], expected: run(["login"], values: ["login": ["a", "b"]])),
        // A value starting with '-' is taken unless it is an option here.
        Good(argv: ["login", "--login", "-x"], expected: run(["login"], values: ["login": ["-x"]])),
        Good(argv: ["login", "--login=--json"], expected: run(["login"], values: ["login": ["--json"]])),
        Good(argv: ["login", "--password-file", "-"], expected: run(["login"], values: ["password-file": ["-"]])),
        Good(argv: ["status", "--json"], expected: run(["status"], flags: ["json"])),
        Good(argv: ["logout", "--verbose"], expected: run(["logout"], flags: ["verbose"])),
        Good(argv: ["completion", "zsh"], expected: run(["completion"], arguments: ["SHELL": ["zsh"]])),
        Good(argv: ["completion", "--verbose", "fish"], expected: run(["completion"], flags: ["verbose"], arguments: ["SHELL": ["fish"]])),
        // Optional + repeating positionals; everything after `--` is positional.
        Good(argv: ["send", "d1"], expected: run(["send"], arguments: ["DIALOG": ["d1"], "TEXT": []])),
        Good(argv: ["send", "d1", "hi", "there"], expected: run(["send"], arguments: ["DIALOG": ["d1"], "TEXT": ["hi", "there"]])),
        Good(argv: ["send", "d1", "--", "--json", "-x", "login"], expected: run(["send"], arguments: ["DIALOG": ["d1"], "TEXT": ["--json", "-x", "login"]])),
        Good(argv: ["send", "--", "-5"], expected: run(["send"], arguments: ["DIALOG": ["-5"], "TEXT": []])),
        // Help and version.
        Good(argv: [], expected: .help(path: ["chatctl"])),
        Good(argv: ["--verbose"], expected: .help(path: ["chatctl"])),
        Good(argv: ["--help"], expected: .help(path: ["chatctl"])),
        Good(argv: ["-h"], expected: .help(path: ["chatctl"])),
        Good(argv: ["login", "--help"], expected: .help(path: ["chatctl", "login"])),
        Good(argv: ["--help", "login"], expected: .help(path: ["chatctl", "login"])),
        Good(argv: ["login", "-jh"], expected: .help(path: ["chatctl", "login"])),
        Good(argv: ["login", "--jsn", "--help"], expected: .help(path: ["chatctl", "login"])),
        Good(argv: ["help"], expected: .help(path: ["chatctl"])),
        Good(argv: ["help", "login"], expected: .help(path: ["chatctl", "login"])),
        Good(argv: ["help", "completion"], expected: .help(path: ["chatctl", "completion"])),
        Good(argv: ["--version"], expected: .version),
        Good(argv: ["--config", "x", "--version"], expected: .version),
        // After `--`, `--help` is just a value.
        Good(argv: ["send", "d1", "--", "--help"], expected: run(["send"], arguments: ["DIALOG": ["d1"], "TEXT": ["--help"]])),
    ]

    @Test("good input binds", arguments: good)
    func goodInput(_ input: Good) throws {
        #expect(try Fixture.parser.parse(input.argv) == input.expected)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var argv: [String]
        var message: String
        var path: [String]
        var testDescription: String { "chatctl " + argv.joined(separator: " ") }
    }

    static let bad: [Bad] = [
        Bad(argv: ["login", "--jsn"], message: "unknown option '--jsn' (did you mean '--json'?)", path: ["chatctl", "login"]),
        Bad(argv: ["login", "-json"], message: "unknown option '-json' (did you mean '--json'?)", path: ["chatctl", "login"]),
        Bad(argv: ["login", "--frobnicate"], message: "unknown option '--frobnicate'", path: ["chatctl", "login"]),
        Bad(argv: ["login", "-x"], message: "unknown option '-x'", path: ["chatctl", "login"]),
        Bad(argv: ["login", "-jx"], message: "unknown option '-x' in '-jx'", path: ["chatctl", "login"]),
        Bad(argv: ["--json", "status"], message: "unknown option '--json'", path: ["chatctl"]),
        Bad(argv: ["--confg", "x", "status"], message: "unknown option '--confg' (did you mean '--config'?)", path: ["chatctl"]),
        Bad(argv: ["status", "--verbsoe"], message: "unknown option '--verbsoe' (did you mean '--verbose'?)", path: ["chatctl", "status"]),
        Bad(argv: ["login", "--version"], message: "unknown option '--version'", path: ["chatctl", "login"]),
        Bad(argv: ["lgin"], message: "unknown command 'lgin' (did you mean 'login'?)", path: ["chatctl"]),
        Bad(argv: ["stauts"], message: "unknown command 'stauts' (did you mean 'status'?)", path: ["chatctl"]),
        Bad(argv: ["frobnicate"], message: "unknown command 'frobnicate'", path: ["chatctl"]),
        Bad(argv: ["help", "lgout"], message: "unknown command 'lgout' (did you mean 'logout'?)", path: ["chatctl"]),
        Bad(argv: ["login", "--login"], message: "missing value for option '--login'", path: ["chatctl", "login"]),
        Bad(argv: ["login", "--login", "--json"], message: "missing value for option '--login'", path: ["chatctl", "login"]),
        Bad(argv: ["login", "-l"], message: "missing value for option '-l'", path: ["chatctl", "login"]),
        Bad(argv: ["--config"], message: "missing value for option '--config'", path: ["chatctl"]),
        Bad(argv: ["completion"], message: "missing argument SHELL", path: ["chatctl", "completion"]),
        Bad(argv: ["completion", "bash", "zsh"], message: "unexpected argument 'zsh'", path: ["chatctl", "completion"]),
        Bad(argv: ["completion", "bsh"], message: "invalid value 'bsh' for SHELL (did you mean 'bash'?)", path: ["chatctl", "completion"]),
        Bad(argv: ["completion", "powershell"], message: "invalid value 'powershell' for SHELL; expected one of: bash, zsh, fish", path: ["chatctl", "completion"]),
        Bad(argv: ["status", "x"], message: "unexpected argument 'x': 'chatctl status' takes only options", path: ["chatctl", "status"]),
        // What was typed is quoted back inert: it goes to a terminal.
        Bad(argv: ["status", "x\u{1B}]0;t\u{07}"], message: "unexpected argument 'x\\u{1B}]0;t\\u{7}': 'chatctl status' takes only options", path: ["chatctl", "status"]),
        Bad(argv: ["frob\u{202E}"], message: "unknown command 'frob\\u{202E}'", path: ["chatctl"]),
        Bad(argv: ["logout", "--", "x"], message: "unexpected argument 'x': 'chatctl logout' takes only options", path: ["chatctl", "logout"]),
        Bad(argv: ["send"], message: "missing argument DIALOG", path: ["chatctl", "send"]),
        Bad(argv: ["status", "--json=yes"], message: "'--json' does not take a value", path: ["chatctl", "status"]),
        Bad(argv: ["--version=2"], message: "'--version' does not take a value", path: ["chatctl"]),
        Bad(argv: ["status", "--help=x"], message: "'--help' does not take a value", path: ["chatctl", "status"]),
    ]

    @Test("bad input is a one-line usage error", arguments: bad)
    func badInput(_ input: Bad) {
        #expect(throws: UsageError(message: input.message, path: input.path)) {
            try Fixture.parser.parse(input.argv)
        }
    }

    @Test func accessorsReadBoundValues() throws {
        guard case .run(let parsed) = try Fixture.parser.parse(["--config", "/c", "login", "--login", "a", "--login", "b", "--json", "--no-chat"]) else {
            Issue.record("expected .run"); return
        }
        #expect(parsed.path == ["chatctl", "login"])
        #expect(parsed.flag("json") && parsed.flag("--no-chat"))
        #expect(!parsed.flag("no-signup"))
        #expect(parsed.value("login") == "b")
        #expect(parsed.values("--login") == ["a", "b"])
        #expect(parsed.value("config") == "/c")
        #expect(parsed.value("full-name") == nil)
        guard case .run(let send) = try Fixture.parser.parse(["send", "d", "x", "y"]) else {
            Issue.record("expected .run"); return
        }
        #expect(send.arguments("DIALOG") == ["d"])
        #expect(send.arguments("TEXT") == ["x", "y"])
        #expect(send.arguments("NOPE") == [])
    }

    @Test func errorDescriptionIsTheMessage() {
        let error = UsageError(message: "missing argument SHELL", path: ["chatctl", "completion"])
        #expect("\(error)" == "missing argument SHELL")
    }

    @Test func optionNamesMayBeDeclaredWithDashes() throws {
        let root = CommandSpec(name: "tool", abstract: "A tool.", options: [OptionSpec("--out", kind: .value(metavar: "FILE"), help: "Output.")])
        #expect(try CommandLineParser(root: root).parse(["--out", "x"])
            == .run(ParsedCommand(path: ["tool"], optionValues: ["out": ["x"]], argumentValues: [:])))
    }
}
