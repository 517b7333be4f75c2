import Testing
@testable import ChatctlCLI
@testable import Presentation

/// The command line in-process: help, usage errors, version, completions.
@Suite struct CommandLineTests {
    /// A warning may quote the server or another user: one line, nothing a terminal obeys.
    @Test func aWarningIsOneInertLine() {
        let io = CapturedIO()
        io.warn("--download: cannot save evil\u{1B}]0;owned\u{7}.png of message m1: 404\nnot found")
        #expect(io.err == "chatctl: --download: cannot save evil.png of message m1: 404 not found\n")
        #expect(io.out.isEmpty)
    }

    @Test func versionPrintsOneLine() {
        let (status, io) = runChatctl(["--version"])
        #expect(status == 0)
        #expect(io.out == "chatctl \(Chatctl.version)\n")
        #expect(io.err.isEmpty)
    }

    @Test func bareChatctlShowsAShortUsageNotTheWholeHelp() {
        let (status, io) = runChatctl([])
        #expect(status == 0)
        #expect(io.err.isEmpty)
        #expect(io.out.contains("Common commands:") && !io.out.contains("SUBCOMMANDS:"))
    }

    @Test(arguments: [["--help"], ["help"], ["-h"]])
    func helpGoesToStdout(arguments: [String]) {
        let (status, io) = runChatctl(arguments)
        #expect(status == 0)
        #expect(io.out.contains("login"))
        #expect(io.out.contains("status"))
        #expect(io.err.isEmpty)
    }

    @Test(arguments: [
        (["lgin"], "chatctl: unknown command 'lgin' (did you mean 'login'?)"),
        (["login", "--jsn"], "chatctl: unknown option '--jsn' (did you mean '--json'?)"),
        (["status", "--json=yes"], "chatctl: '--json' does not take a value"),
        (["login", "--login"], "chatctl: missing value for option '--login'"),
        (["completion"], "chatctl: missing argument SHELL"),
        (["completion", "tcsh"], "chatctl: invalid value 'tcsh' for SHELL (did you mean 'bash'?)"),
        (["completion", "powershell"], "chatctl: invalid value 'powershell' for SHELL; expected one of: bash, zsh, fish"),
        (["send", "@", "hi"], "chatctl: invalid value '@' for DIALOG: '@' needs a login after it, like @alice"),
        (["send", "", "hi"], "chatctl: invalid value '' for DIALOG: empty dialog reference (use a dialog id, @login or a dialog name)"),
    ])
    func usageErrorsAreOneLineThenUsage(arguments: [String], firstLine: String) {
        expectUsageError(arguments, firstLine: firstLine)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryCommand(shell: String) {
        let (status, io) = runChatctl(["completion", shell])
        #expect(status == 0)
        // fish declares options without their dashes (`-l password-stdin`).
        for command in ["login", "status", "logout", "completion", "password-stdin", "no-signup"] {
            #expect(io.out.contains(command), "\(shell) completion lacks \(command)")
        }
    }

    /// Parsed values are kept by long name for the whole chain of commands, and every command
    /// in it is bound from them (`dialogs` as well as `dialogs create`): a name declared along
    /// one path by a parent and a child must be the same kind of option with the same rule,
    /// or a value checked against one would be bound to a type that never checked it.
    @Test func anOptionNameMeansOneThingAlongACommandPath() {
        for (path, chain) in Chatctl.tree.spec.allCommands() {
            let byName = Dictionary(grouping: chain.flatMap { $0.options + $0.inheritedOptions }, by: \.long)
            for (name, specs) in byName {
                #expect(specs.allSatisfy { $0.kind == specs[0].kind && $0.rule == specs[0].rule }, "\(path): --\(name)")
            }
        }
    }

    /// A password is read from a file, stdin, the environment or a terminal; no
    /// command anywhere takes one as a value. --password-file serves every
    /// command (renewing an expired session), so it is the root's, inherited.
    @Test func passwordIsNeverTakenFromTheCommandLine() {
        #expect(Chatctl.spec.inheritedOptions.contains { $0.long == "password-file" })
        for (path, chain) in Chatctl.tree.spec.allCommands() {
            let valued = chain.validOptions.filter { $0.long.contains("password") && $0.kind != .flag }
            #expect(valued.map(\.long) == ["password-file"], "\(path)")
        }
    }

    @Test func terminalPromptIsUsedOnlyOnATerminal() {
        let io = CapturedIO(terminal: true)
        io.secretAnswers = ["short"]
        let (status, _) = runChatctl(["login", "--login", "alice", "--config", "/nonexistent.json"], io: io)
        #expect(io.prompts == ["Password for alice: "])
        #expect(status == 2) // too short: refused before the config is even read
        #expect(!io.err.contains("short"))
    }
}

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}]0;pwned title\u{07}after", "after"),
        ("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("bell\u{07}back\u{08}space\r", "bellbackspace"),
        ("line one\nline two\ttab", "line one\nline two\ttab"),
        ("\u{9B}2Jclear", "clear"),
        ("abc\u{202E}evil", "abcevil"),
        ("\u{1B}Pdcs payload\u{1B}\\ok", "ok"),
        ("trailing escape\u{1B}", "trailing escape"),
    ])
    func controlSequencesAreInert(input: String, expected: String) {
        #expect(TerminalText.sanitize(input) == expected)
    }

    @Test func oneLineTextHasSpacesForLineBreaks() {
        #expect(TerminalText.sanitize("two\nlines\u{1B}[2J", newlines: .asSpaces) == "two lines")
        #expect(TerminalText.sanitize("two\nlines", newlines: .kept) == "two\nlines")
    }
}
