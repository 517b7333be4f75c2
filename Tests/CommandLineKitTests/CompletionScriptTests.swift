import CommandLineKit
import Foundation
import Testing

/// Each generated script is loaded into the real shell and asked to complete a
/// command line; the offered words are compared as sets.
@Suite("Completion scripts in real shells", .serialized)
struct CompletionScriptTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// The command line up to the cursor; a trailing space starts a new word.
        var line: String
        var expected: Set<String>
        var testDescription: String { "'\(line)<TAB>'" }
    }

    static let allSubcommands: Set<String> = ["login", "status", "logout", "completion", "send", "help"]

    static let cases: [Case] = [
        Case(line: "chatctl lo", expected: ["login", "logout"]),
        Case(line: "chatctl ", expected: allSubcommands),
        Case(line: "chatctl login --js", expected: ["--json"]),
        Case(line: "chatctl login --pass", expected: ["--password-stdin", "--password-file"]),
        Case(line: "chatctl status --", expected: ["--json", "--config", "--state-dir", "--verbose", "--help"]),
        Case(line: "chatctl --ver", expected: ["--verbose", "--version"]),
        Case(line: "chatctl completion ", expected: ["bash", "zsh", "fish"]),
        Case(line: "chatctl completion z", expected: ["zsh"]),
        // Only the first positional of `completion` has choices.
        Case(line: "chatctl completion bash z", expected: []),
        // The value of an inherited option is skipped when finding the command.
        Case(line: "chatctl --config x lo", expected: ["login", "logout"]),
        Case(line: "chatctl --state-dir ", expected: ["dir1"]),
        Case(line: "chatctl login --password-file no", expected: ["notes.txt"]),
        Case(line: "chatctl help ", expected: ["login", "status", "logout", "completion", "send"]),
        // A repeatable option is offered again once given (zsh leaves out the others).
        Case(line: "chatctl send d --attach notes.txt --att", expected: ["--attach"]),
    ]

    static let files = ["notes.txt": "x", "dir1/": ""]

    /// Words the shell offered, without fish's descriptions or a directory's trailing slash.
    static func normalized(_ output: String) -> Set<String> {
        Set(output.split(separator: "\n").map { line in
            var word = String(line.split(separator: "\t", omittingEmptySubsequences: false)[0])
            if word.hasSuffix("/") { word.removeLast() }
            return word
        }.filter { !$0.isEmpty })
    }

    static func write(_ shell: CompletionScript.Shell, root: CommandSpec = Fixture.root, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("chatctl.\(shell.rawValue)")
        try CompletionScript.render(shell, root: root).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func bashComplete(_ line: String, root: CommandSpec = Fixture.root) throws -> Set<String> {
        let directory = try ScriptRunner.sandbox(files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try write(.bash, root: root, in: directory)
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let harness = #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _chatctl; printf '%s\n' "${COMPREPLY[@]}""#
        let result = try ScriptRunner.run(["bash", "--norc", "--noprofile", "-c", harness, "bash", script] + words, in: directory)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        return normalized(result.stdout)
    }

    @Test("bash", arguments: cases)
    func bash(_ test: Case) throws {
        #expect(try Self.bashComplete(test.line) == test.expected)
    }

    @Test("fish", arguments: cases)
    func fish(_ test: Case) throws {
        try #require(ScriptRunner.has("fish"), "fish is not installed; `make test` installs it")
        let directory = try ScriptRunner.sandbox(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.write(.fish, in: directory)
        let result = try ScriptRunner.run(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, test.line], in: directory)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(Self.normalized(result.stdout) == test.expected)
    }

    /// Drives an interactive zsh in a pseudo-terminal: compinit, source the script,
    /// type the line and TAB; a `compadd` wrapper prints each match between markers
    /// (built at run time so the terminal echo of this code never matches).
    static let zshHarness = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z 'stty -echo; PS1="" RPROMPT=""; autoload -U compinit; compinit -u -D'
    zpty -w z "source ${(q)1}"
    zpty -w z 'compadd () {
      if [[ " $* " == *" -"[OAD]" "* ]]; then builtin compadd "$@"; return $?; fi
      local -a __hits; builtin compadd -A __hits "$@"
      local h; for h in $__hits; do print -r -- "<""M>$h</""M>"; done
      builtin compadd "$@"
    }'
    zpty -w z 'comppostfuncs=(_harness_done); _harness_done() { print -r -- "<DO""NE>"; exit }'
    zpty -n -w z "$2"$'\t'
    local line out
    while zpty -r z line; do
      out+="$line"
      [[ $out == *"<DONE>"* ]] && break
    done
    zpty -d z
    print -r -- "${out//$'\r'/}" | grep -o '<M>[^<]*</M>' | sed 's/<M>//; s/<\/M>//'
    """#

    @Test("zsh", arguments: cases)
    func zsh(_ test: Case) throws {
        try #require(ScriptRunner.has("zsh"), "zsh is not installed; `make test` installs it")
        let directory = try ScriptRunner.sandbox(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.write(.zsh, in: directory)
        let harness = directory.appendingPathComponent("harness.zsh")
        try Self.zshHarness.write(to: harness, atomically: true, encoding: .utf8)
        let result = try ScriptRunner.run(["zsh", "-f", harness.path, script, test.line], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.normalized(result.stdout) == test.expected)
    }

    @Test("scripts parse in their shells", arguments: CompletionScript.Shell.allCases)
    func syntax(_ shell: CompletionScript.Shell) throws {
        let executable = shell.rawValue
        try #require(ScriptRunner.has(executable), "\(executable) is not installed")
        let directory = try ScriptRunner.sandbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.write(shell, in: directory)
        let result = try ScriptRunner.run([executable, "-n", script], in: directory)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func scriptsRegisterThemselves() {
        #expect(CompletionScript.render(.bash, root: Fixture.root).contains("\ncomplete -F _chatctl chatctl\n"))
        let zsh = CompletionScript.render(.zsh, root: Fixture.root)
        #expect(zsh.hasPrefix("#compdef chatctl\n"))
        #expect(zsh.contains("compdef _chatctl chatctl"))
        #expect(zsh.contains("'(-j --json)--json[Print the session as JSON.]'"))
        #expect(zsh.contains("':SHELL:(bash zsh fish)'"))
        let fish = CompletionScript.render(.fish, root: Fixture.root)
        #expect(fish.contains("complete -c chatctl -n '__chatctl_at chatctl login' -l 'json' -s 'j' -d 'Print the session as JSON.'"))
        #expect(fish.contains("complete -c chatctl -n '__chatctl_at chatctl' -a 'login' -d 'Sign up or log in, then connect to chat.'"))
    }

    /// The scripts come from the tree, not from a template that happens to match it.
    @Test func completionFollowsTheDeclarations() throws {
        let root = CommandSpec(name: "chatctl", abstract: "x", subcommands: [
            CommandSpec(name: "alpha", abstract: "A.", options: [OptionSpec("shade", kind: .value(metavar: "S"), help: "Shade.", completion: .choices(["red", "green"]))]),
            CommandSpec(name: "beta", abstract: "B.", subcommands: [CommandSpec(name: "gamma", abstract: "G.")]),
        ])
        #expect(try Self.bashComplete("chatctl ", root: root) == ["alpha", "beta"])
        #expect(try Self.bashComplete("chatctl alpha --shade ", root: root) == ["red", "green"])
        #expect(try Self.bashComplete("chatctl beta ", root: root) == ["gamma"])
        #expect(try Self.bashComplete("chatctl beta gamma -", root: root) == ["--help", "-h"])
    }

    @Test func quotesInHelpTextAreEscaped() throws {
        let root = CommandSpec(name: "chatctl", abstract: "x", subcommands: [
            CommandSpec(name: "it's", abstract: "Don't [really]: \\ care.", options: [OptionSpec("o", help: "It's [x]: y.")]),
        ])
        let directory = try ScriptRunner.sandbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        for shell in CompletionScript.Shell.allCases where ScriptRunner.has(shell.rawValue) {
            let script = try Self.write(shell, root: root, in: directory)
            let result = try ScriptRunner.run([shell.rawValue, "-n", script], in: directory)
            #expect(result.status == 0, "\(shell): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(shell): \(result.stderr)")
        }
    }
}
