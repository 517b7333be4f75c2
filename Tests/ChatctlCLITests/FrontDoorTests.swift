#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Foundation
import Testing
@testable import ChatctlCLI
import Presentation

/// What a person meets first: a bare `chatctl`, the version, the man
/// page on a terminal, a password typed on the command line, the renamed
/// options, and the error when there is no config.
@Suite struct FrontDoorTests {
    @Test func bareChatctlPrintsAShortUsageWithTheCommonCommands() {
        let (status, io) = runChatctl([])
        #expect(status == 0)
        #expect(io.err.isEmpty)
        #expect(io.out == """
            usage: chatctl <command> [<options>]

            A command-line chat client for QuickBlox.

            Common commands:
              login                   Sign up or log in, then connect to chat.
              chat                    Chat in a full-screen view: your dialogs, then one
                                      dialog live.
              dialogs                 List your dialogs, newest activity first.
              send                    Send a message: the arguments, or standard input.
              history                 Show a dialog's messages, oldest first.
              listen                  Print messages as they arrive.
              search                  Search cached messages, best matches first.
              status                  Show who is logged in, since when, and until when.

            'chatctl help' lists every command; 'chatctl help <command>' (or 'chatctl
            <command> --help') shows one, with examples.

            """)
    }

    /// `--version` and `-V` are the one line scripts read; `version` adds the commit and the toolchain.
    @Test(arguments: [["--version"], ["-V"], ["version"]])
    func versionHasThreeSpellingsAndOneAnswer(arguments: [String]) {
        let (status, io) = runChatctl(arguments)
        #expect(status == 0)
        let details = arguments == ["version"] ? "commit \(Chatctl.commit)\nSwift \(Chatctl.swiftVersion)\n" : ""
        #expect(io.out == "chatctl \(Chatctl.version)\n" + details)
        #expect(io.err.isEmpty)
    }

    @Test(arguments: [["login", "--password", "hunter22"], ["login", "--password=hunter22"],
                      ["login", "-l", "alice", "--password", "hunter22", "--json"], ["login", "--login", "--password", "hunter22"]])
    func aPasswordOnTheCommandLineIsRefusedWithoutQuotingIt(arguments: [String]) {
        let (status, io) = runChatctl(arguments)
        #expect(status == 2)
        #expect(io.out.isEmpty)
        #expect(!io.err.contains("hunter22"))
        if !arguments.contains("--login") {
            #expect(io.err.hasPrefix("""
                chatctl: login takes no password on the command line, where other users see it (ps, /proc): \
                use --password-stdin, --password-file PATH or CHATCTL_PASSWORD, or a terminal's prompt
                usage: chatctl login
                """))
        }
    }

    @Test func theRefusedPasswordIsInNoHelpNoPageAndNoCompletion() {
        #expect(!runChatctl(["login", "--help"]).1.out.contains("--password "))
        #expect(!runChatctl(["completion", "bash"]).1.out.contains("'--password'"))
        let page = runChatctl(["help", "--man"]).1.out
        let login = page.split(separator: ".SS ").first { $0.hasPrefix("\"chatctl login\"") }
        #expect(login?.contains("\\fB\\-\\-password\\fR\n") == false)
    }

    /// One name per idea: the old spellings still parse, into the same property, and show nowhere.
    @Test func oldSpellingsAreHiddenAliases() throws {
        func command<C>(_ arguments: [String], as: C.Type) throws -> C {
            guard case .run(let invocation) = try Chatctl.tree.parse(arguments) else { throw UsageError(message: "no run", path: []) }
            return try #require(invocation.command as? C)
        }
        #expect(try command(["listen", "--count", "3"], as: ListenCommand.self).count == 3)
        #expect(try command(["listen", "-n", "3"], as: ListenCommand.self).count == 3)
        #expect(try command(["users", "--per-page", "50"], as: UsersCommand.self).perPage == 50)
        #expect(try command(["users", "--limit", "50"], as: UsersCommand.self).perPage == 50)
        let viaRest = try command(["send", "@bob", "--via", "rest", "--lines"], as: SendCommand.self)
        #expect(!viaRest.sendsViaChat)
        #expect(!(try command(["send", "@bob", "--no-chat", "--lines"], as: SendCommand.self)).sendsViaChat)
        #expect(try command(["send", "@bob", "--lines"], as: SendCommand.self).sendsViaChat)
        #expect(try command(["send", "@bob", "--via", "chat", "hi"], as: SendCommand.self).sendsViaChat)

        for (path, old) in [(["listen"], "--count"), (["users"], "--per-page"), (["send"], "--via")] {
            #expect(!runChatctl(path + ["--help"]).1.out.contains(old), "\(path) help shows \(old)")
            for (shell, spelling) in [("bash", "'\(old)'"), ("zsh", "\(old)["), ("zsh", "\(old)="), ("fish", "-l '\(old.dropFirst(2))'")] {
                #expect(!runChatctl(["completion", shell]).1.out.contains(spelling), "\(shell) offers \(old)")
            }
        }
        let page = runChatctl(["help", "--man"]).1.out
        for old in ["count", "per\\-page", "via"] { #expect(!page.contains("\\fB\\-\\-\(old)\\fR"), "the man page shows --\(old)") }
        // A typo is never steered to an old name.
        expectUsageError(["users", "--per-pag", "2"], firstLine: "chatctl: unknown option '--per-pag'")
        expectUsageError(["send", "@bob", "--no-chat", "--via", "chat", "hi"], firstLine: "chatctl: --no-chat and --via chat cannot be used together")
    }

    /// Progress on stderr goes with -q wherever a command draws it.
    @Test(arguments: [["send"], ["download"], ["outbox", "flush"], ["sync"], ["cache", "rebuild"]])
    func quietMeansNoProgressEverywhere(path: [String]) throws {
        let chain = try #require(Chatctl.tree.spec.chain(for: ["chatctl"] + path))
        let quiet = try #require(chain.validOptions.first { $0.long == "quiet" })
        #expect(quiet.short == "q")
    }

    /// Every command that prints a result takes --json.
    @Test(arguments: [["logout"], ["read"], ["sync"], ["download"]])
    func resultsComeAsJSONToo(path: [String]) throws {
        let chain = try #require(Chatctl.tree.spec.chain(for: ["chatctl"] + path))
        #expect(chain.validOptions.contains { $0.long == "json" && $0.kind == .flag })
    }

    @Test func downloadJSONDescribesFilesSoNotStandardOutput() {
        expectUsageError(["download", "6560a3f1c2b4e90012ab34cd", "-o", "-", "--json"],
                         firstLine: "chatctl: --json describes files saved; -o - writes the file itself to standard output")
    }

    @Test func logoutJSONSaysWhatWasDone() {
        #expect(JSONOutput.line(LogoutCommand.object(.loggedOut(login: "alice"))) == #"{"ended_on_server":true,"logged_out":true,"login":"alice"}"# + "\n")
        #expect(JSONOutput.line(LogoutCommand.object(.wasNotLoggedIn)) == #"{"ended_on_server":false,"logged_out":false,"login":null}"# + "\n")
    }

    /// Without a config: the example to copy (here the source tree's, as for a
    /// chatctl run from its build directory) and the sandbox's own.
    @Test func noConfigNamesTheExampleAndTheSandbox() throws {
        let (status, io) = runChatctl(["status", "--config", "/nonexistent/config.json"])
        #expect(status == 2)
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/config.example.json"
        #expect(FileManager.default.fileExists(atPath: example))
        #expect(io.err == """
            chatctl: cannot read config file /nonexistent/config.json (copy it with 'mkdir -p /nonexistent && cp \(example) \
            /nonexistent/config.json' and fill in your application's keys; for a local server instead, run \
            'mkdir -p /nonexistent && chatctl-sandbox > /nonexistent/config.json &', which writes its config there; \
            or pass --config PATH, or set CHATCTL_CONFIG)

            """)
    }

    /// `help --man` on a terminal goes to man(1) as `man -l -`; a fake man records what it got.
    @Test func theManPageOnATerminalIsRenderedByMan() throws {
        let bin = try TemporaryPrefix()
        let record = bin.path + "/record"
        let script = "#!/bin/sh\nprintf '%s\\n' \"$*\" > '\(record).args'\ncat > '\(record).page'\n"
        _ = FileManager.default.createFile(atPath: bin.path + "/man", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let io = TerminalOutput()
        #expect(Chatctl.run(arguments: ["help", "--man"], environment: ["PATH": bin.path], io: io) == 0)
        #expect(io.out.isEmpty)
        #expect(try String(contentsOfFile: record + ".args", encoding: .utf8) == "-l -\n")
        #expect(try String(contentsOfFile: record + ".page", encoding: .utf8) == runChatctl(["help", "--man"]).1.out)

        // No man on PATH: the roff itself.
        let bare = TerminalOutput()
        #expect(Chatctl.run(arguments: ["help", "--man"], environment: ["PATH": bin.path + "/none"], io: bare) == 0)
        #expect(bare.out.hasPrefix(".TH \"CHATCTL\" 1"))
    }
}

/// A directory that goes with the test.
final class TemporaryPrefix {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/chatctl-prefix-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw UsageError(message: "mkdtemp failed", path: []) }
        path = String(cString: made)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A terminal on stdout (for `help --man`), the rest captured as `CapturedIO` does.
final class TerminalOutput: TerminalIO {
    var out = "", err = ""
    func writeOut(_ text: String) { out += text }
    func writeErr(_ text: String) { err += text }
    var stdinIsTerminal: Bool { false }
    var stdoutIsTerminal: Bool { true }
    var stderrIsTerminal: Bool { false }
    var stdoutColumns: Int? { 80 }
    func readAllInput() -> [UInt8]? { [] }
    func readSecret(prompt: String) -> String? { nil }
    func readLine(prompt: String) -> String? { nil }
    func ask(_ prompt: String, echo: Bool) -> PromptAnswer { .endOfInput }
}
