import CommandLineKit
import Testing

@Suite("Help and usage text, rendered from the declarations")
struct HelpTests {
    @Test func rootHelp() {
        #expect(Fixture.parser.help(for: ["chatctl"]) == """
        OVERVIEW: A command-line QuickBlox chat client.

        USAGE: chatctl [--config <PATH>] [--state-dir <DIR>] [--verbose] <subcommand>

        OPTIONS:
          --config <PATH>         Configuration file (default:
                                  ~/.config/chatctl/config).
          --state-dir <DIR>       Directory for the session and message cache.
          -v, --verbose           Log HTTP and XMPP traffic to stderr, secrets redacted.
          -V, --version           Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          login                   Sign up or log in, then connect to chat.
          status                  Show the saved session and chat connection state.
          logout                  End the session and forget the saved token.
          completion              Print a shell completion script.
          send                    Send messages to a dialog.
          help                    Show help for a command.

          See 'chatctl help <subcommand>' for detailed help.
        """)
    }

    @Test func loginHelp() {
        #expect(Fixture.parser.help(for: ["chatctl", "login"]) == """
        OVERVIEW: Sign up or log in, then connect to chat.

        Signs up with the given login first; if the login is taken (422), logs in with
        the same password instead.

        USAGE: chatctl login [--login <NAME>] [--full-name <NAME>] [--password-stdin]
                             [--password-file <PATH>] [--no-signup] [--no-chat] [--json]

        OPTIONS:
          -l, --login <NAME>      QuickBlox login or email.
          --full-name <NAME>      Full name to sign up with.
          --password-stdin        Read the password from standard input.
          --password-file <PATH>  Read the password from this file.
          --no-signup             Log in only; never create an account.
          --no-chat               Do not connect to chat after logging in.
          -j, --json              Print the session as JSON.
          -h, --help              Show help information.

        GLOBAL OPTIONS:
          --config <PATH>         Configuration file (default:
                                  ~/.config/chatctl/config).
          --state-dir <DIR>       Directory for the session and message cache.
          -v, --verbose           Log HTTP and XMPP traffic to stderr, secrets redacted.
        """)
    }

    @Test func argumentsSection() {
        #expect(Fixture.parser.help(for: ["chatctl", "completion"]) == """
        OVERVIEW: Print a shell completion script.

        USAGE: chatctl completion <SHELL>

        ARGUMENTS:
          <SHELL>                 Shell to generate for (bash, zsh, fish).

        OPTIONS:
          -h, --help              Show help information.

        GLOBAL OPTIONS:
          --config <PATH>         Configuration file (default:
                                  ~/.config/chatctl/config).
          --state-dir <DIR>       Directory for the session and message cache.
          -v, --verbose           Log HTTP and XMPP traffic to stderr, secrets redacted.
        """)
        #expect(Fixture.parser.help(for: ["chatctl", "send"]).contains("""
        ARGUMENTS:
          <DIALOG>                Dialog ID.
          <TEXT> ...              Message texts, one message each.
        """))
    }

    @Test("usage line", arguments: [
        (["chatctl"], "usage: chatctl [--config <PATH>] [--state-dir <DIR>] [--verbose] <subcommand>"),
        (["chatctl", "login"], "usage: chatctl login [<options>]"),
        (["chatctl", "status"], "usage: chatctl status [--json]"),
        (["chatctl", "completion"], "usage: chatctl completion <SHELL>"),
        (["chatctl", "send"], "usage: chatctl send [--attach <FILE>] <DIALOG> [<TEXT> ...]"),
    ])
    func usageLine(path: [String], expected: String) {
        #expect(Fixture.parser.usage(for: path) == expected)
    }

    @Test("every help line fits in 80 columns", arguments: [["chatctl"], ["chatctl", "login"], ["chatctl", "status"], ["chatctl", "send"], ["chatctl", "help"]])
    func wrapsAt80(path: [String]) {
        for line in Fixture.parser.help(for: path).split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
            #expect(line.last != " ")
        }
    }

    @Test func longHelpTextWrapsUnderItsColumn() {
        let words = Array(repeating: "word", count: 40).joined(separator: " ")
        let root = CommandSpec(name: "tool", abstract: "A tool.", options: [
            OptionSpec("a-very-long-option-name", kind: .value(metavar: "VALUE"), help: words),
        ])
        let lines = CommandLineParser(root: root).help(for: ["tool"]).split(separator: "\n")
        let start = try! #require(lines.firstIndex { $0.hasPrefix("  --a-very-long-option-name <VALUE>") })
        #expect(lines[start] == "  --a-very-long-option-name <VALUE>")
        #expect(lines[start + 1].hasPrefix(String(repeating: " ", count: 26) + "word word"))
        #expect(lines[start + 1].count <= 80 && lines[start + 2].count <= 80)
    }

    @Test func unknownPathFallsBackToTheLongestDeclaredPrefix() {
        #expect(Fixture.parser.help(for: ["chatctl", "login", "nope"]) == Fixture.parser.help(for: ["chatctl", "login"]))
    }
}
