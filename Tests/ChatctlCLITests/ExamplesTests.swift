import CommandLineKit
import Testing
@testable import ChatctlCLI

/// Every command's help and the man page show examples of its use, and each
/// example is a command line chatctl accepts.
@Suite struct ExamplesTests {
    /// Names every command that has fewer than two examples: a new command adds its own.
    @Test func everyCommandHasExamples() {
        let lacking = Chatctl.tree.spec.allCommands()
            .filter { $0.chain[$0.chain.count - 1].examples.count < 2 }
            .map { $0.path.joined(separator: " ") }
        #expect(lacking.isEmpty, "commands with fewer than 2 examples (give them 2–4 in their configuration): \(lacking)")
    }

    /// Each example parses as the command it documents (the root's may be any
    /// command), with nothing left over; its command line fits the help's 80 columns.
    @Test func everyExampleIsACommandLineChatctlAccepts() throws {
        for (path, chain) in Chatctl.tree.spec.allCommands() {
            for example in chain[chain.count - 1].examples {
                #expect(example.command.count + 2 <= 80, "\(example.command): longer than the help's 80 columns")
                #expect(!example.comment.isEmpty && !example.comment.hasSuffix("."), "\(example.command): comment '\(example.comment)'")
                let invocations = ShellLine.commands(example.command).filter { $0.first == "chatctl" }
                #expect(!invocations.isEmpty, "\(example.command) runs no chatctl")
                var documents = false
                for words in invocations {
                    switch try Chatctl.tree.parse(Array(words.dropFirst())) {
                    case .run(let invocation): documents = documents || path.count == 1 || invocation.path == path
                    case .version: documents = documents || path == ["chatctl", "version"]
                    case .help, .manual: Issue.record("\(example.command) asks for help")
                    }
                }
                #expect(documents, "\(example.command) does not run '\(path.joined(separator: " "))'")
            }
        }
    }

    @Test func helpEndsWithTheExamples() {
        let (status, io) = runChatctl(["help", "send"])
        #expect(status == 0)
        #expect(io.out.hasSuffix("""
            EXAMPLES:
              # Send bob a message
              chatctl send @bob 'lunch at noon?'

              # Send a file, with a caption
              chatctl send ops --attach report.pdf 'the report'

              # Send a command's output as one message
              uptime | chatctl send ops

              # One message per line, as each line arrives
              tail -f app.log | chatctl send ops --lines

            """))
        #expect(runChatctl(["send", "--help"]).1.out == io.out)
    }

    @Test func aGroupShowsItsExamplesBeforeThePointerToItsSubcommands() {
        let out = runChatctl(["dialogs", "--help"]).1.out
        let examples = out.range(of: "EXAMPLES:\n  # Your dialogs, newest activity first\n  chatctl dialogs\n")
        let subcommands = out.range(of: "SUBCOMMANDS:")
        let pointer = out.range(of: "  See 'chatctl help dialogs <subcommand>' for detailed help.\n")
        #expect(examples != nil && subcommands != nil && pointer != nil)
        if let examples, let subcommands, let pointer {
            #expect(subcommands.lowerBound < examples.lowerBound && examples.upperBound < pointer.lowerBound)
        }
    }

    @Test func theManPageHasAnExamplesSectionWithEveryCommand() throws {
        let page = runChatctl(["help", "--man"]).1.out
        let examples = try #require(page.range(of: "\n.SH EXAMPLES\n"))
        let seeAlso = try #require(page.range(of: "\n.SH \"SEE ALSO\"\n"))
        #expect(examples.upperBound < seeAlso.lowerBound, "EXAMPLES comes just before SEE ALSO")
        let section = String(page[examples.upperBound..<seeAlso.lowerBound])
        for (path, _) in Chatctl.tree.spec.allCommands() {
            #expect(section.contains(".SS \"\(path.joined(separator: " ").replacing("-", with: "\\-"))\"\n"), "\(path)")
        }
        #expect(section.contains(".SS \"chatctl send\"\n.PP\nSend bob a message\n.RS 4\n.nf\nchatctl send @bob 'lunch at noon?'\n.fi\n.RE\n"))
    }
}

/// Splits a documented shell line into its simple commands' words: quotes
/// removed, `$(…)` kept whole, variable assignments and redirections dropped.
/// Enough for the examples; not a shell.
enum ShellLine {
    static func commands(_ line: String) -> [[String]] {
        var commands: [[String]] = [], words: [String] = [], word = "", inWord = false
        var chars = Array(line)[...]
        var skipNext = false
        func endWord() {
            if inWord {
                if skipNext { skipNext = false } else if words.isEmpty && word.contains("=") && !word.hasPrefix("-") {} else { words.append(word) }
            }
            word = ""; inWord = false
        }
        func endCommand() { endWord(); if !words.isEmpty { commands.append(words) }; words = [] }
        while let c = chars.popFirst() {
            switch c {
            case "'":
                inWord = true
                while let q = chars.popFirst(), q != "'" { word.append(q) }
            case "\"":
                inWord = true
                while let q = chars.popFirst(), q != "\"" {
                    if q == "\\", let next = chars.popFirst() { word.append(next) } else { word.append(q) }
                }
            case "$" where chars.first == "(":
                inWord = true
                word.append(c)
                var depth = 0
                while let q = chars.popFirst() {
                    word.append(q)
                    if q == "(" { depth += 1 } else if q == ")" { depth -= 1; if depth == 0 { break } }
                }
            case " ":
                endWord()
            case "|", ";", "&":
                endCommand()
            case ">", "<":
                // `> file`, `2> file`: the target is not the command's.
                if word.allSatisfy(\.isNumber) { word = ""; inWord = false }
                endWord()
                skipNext = true
                if chars.first == " " { chars.removeFirst() }
            default:
                inWord = true
                word.append(c)
            }
        }
        endCommand()
        return commands
    }
}
