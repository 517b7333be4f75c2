import Foundation
import Testing
import TestSupport

/// What the README and the guides under docs/ show works as shown: the README's quick start runs
/// as written, from a fresh home directory and a directory outside the repository; and every
/// `chatctl` and `chatctl-sandbox` command any of them shows in a code block names a command the
/// binary has, with options its help lists, so a renamed command or option cannot leave a page
/// behind.
@Suite(.serialized) struct DocumentedCommandsEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The pages a newcomer reads: the README and every guide.
    static func pages() throws -> [String] {
        let guides = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + guides
    }

    /// The shell lines of a page's `sh`, `bash` and `console` blocks (a console block's lines
    /// after their `$ ` prompt), continuation lines joined.
    static func shellLines(of page: String) -> [String] {
        var lines: [String] = []
        var block: String?
        var pending = ""
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                block = block == nil ? String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces) : nil
                continue
            }
            guard let kind = block, ["sh", "bash", "console"].contains(kind) else { continue }
            var command = line
            if kind == "console" {
                guard pending.isEmpty ? line.hasPrefix("$ ") : true else { continue }
                if line.hasPrefix("$ ") { command = String(line.dropFirst(2)) }
            }
            if command.hasSuffix("\\") {
                pending += command.dropLast() + " "
                continue
            }
            lines.append(pending + command)
            pending = ""
        }
        return lines
    }

    /// Splits a shell line into words (quotes kept together, not expanded), with each shell
    /// operator as a word of its own and a comment left out.
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var chars = Array(line)[...]
        func end() { if !word.isEmpty { words.append(word); word = "" } }
        while let c = chars.popFirst() {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
                continue
            }
            switch c {
            case "'", "\"": quote = c; if word.isEmpty { word = "\u{0}" }
            case " ", "\t": end()
            case "#" where word.isEmpty: return words
            case "|", ";", "&", ">", "<", "(", ")", "`":
                end()
                words.append(String(c))
            default: word.append(c)
            }
        }
        end()
        return words.map { $0.replacingOccurrences(of: "\u{0}", with: "") }
    }

    /// Each use of `program` in the lines: the words after it, up to the next shell operator.
    static func invocations(of program: String, in lines: [String]) -> [(line: String, arguments: [String])] {
        var found: [(String, [String])] = []
        for line in lines {
            let words = Self.words(of: line)
            for (index, word) in words.enumerated() where word == program || word.hasSuffix("/" + program) {
                // An assignment or the name of a file is not a use: the word before must start a command.
                if index > 0, !["|", ";", "&", "(", "`", "sudo", "exec", "then", "do", "time"].contains(words[index - 1])
                    && !words[index - 1].contains("=") { continue }
                let arguments = words[(index + 1)...].prefix { !["|", ";", "&", ">", "<", ")", "`"].contains($0) }
                found.append((line, Array(arguments)))
            }
        }
        return found
    }

    /// `program help WORDS…` for the longest run of leading words it knows as a command.
    final class HelpBook: @unchecked Sendable {
        let program: String
        private var pages: [[String]: String?] = [:]
        init(program: String) { self.program = program }
        static let globalsWithValues: Set<String> = ["--config", "--state-dir", "--profile", "-p", "--password-file"]

        func help(_ words: [String]) throws -> String? {
            if let known = pages[words] { return known }
            let result = try runProcess(productPath(program), ["help"] + words)
            let page = result.status == 0 ? result.stdout : nil
            pages[words] = page
            return page
        }

        /// The command the arguments name and its help page; options every command takes may come first.
        func command(of arguments: [String]) throws -> (words: [String], page: String)? {
            var rest = arguments[...]
            while let first = rest.first, first.hasPrefix("-") {
                rest = rest.dropFirst()
                if Self.globalsWithValues.contains(first) { rest = rest.dropFirst() }
            }
            let leading = Array(rest.prefix { !$0.hasPrefix("-") }.prefix(3))
            for count in stride(from: leading.count, through: 0, by: -1) {
                if let page = try help(Array(leading.prefix(count))) { return (Array(leading.prefix(count)), page) }
            }
            return nil
        }
    }

    @Test(arguments: ["chatctl", "chatctl-sandbox"])
    func everyCommandThePagesShowHasItsCommandAndOptions(program: String) throws {
        let book = HelpBook(program: program)
        var checked = 0
        for page in try Self.pages() {
            let uses = Self.invocations(of: program, in: Self.shellLines(of: try Self.text(page)))
            for (line, arguments) in uses {
                // A placeholder for any command (`chatctl COMMAND --help`) names none.
                if arguments.first.map({ $0 == $0.uppercased() && $0.first?.isLetter == true }) ?? false { continue }
                guard let (words, help) = try book.command(of: arguments) else {
                    Issue.record("\(page): `\(line)`: \(program) has no help for \(arguments)")
                    continue
                }
                if let first = arguments.first(where: { !$0.hasPrefix("-") }), words.isEmpty, program == "chatctl",
                   !arguments.contains(where: { HelpBook.globalsWithValues.contains($0) }) {
                    Issue.record("\(page): `\(line)`: '\(first)' is not a \(program) command")
                }
                for option in arguments where option.hasPrefix("-") && option.count > 1 && !option.hasPrefix("-$") {
                    let name = String(option.split(separator: "=", maxSplits: 1)[0])
                    let listed = name.hasPrefix("--")
                        ? help.range(of: #"(^|[\s\[,])\#(NSRegularExpression.escapedPattern(for: name))\b"#, options: .regularExpression) != nil
                        : help.contains(" \(name),") || help.contains(" \(name) ")
                    #expect(listed, "\(page): `\(line)`: \(program) \(words.joined(separator: " ")) lists no option \(name)")
                }
                checked += 1
            }
        }
        #expect(checked > (program == "chatctl" ? 40 : 5), "only \(checked) uses of \(program) found: the parser lost its way")
    }

    @Test func theQuickStartRunsAsWrittenFromAFreshHome() throws {
        let readme = try Self.text("README.md")
        let section = try #require(readme.range(of: "## Quick start").map { String(readme[$0.upperBound...]) })
        let start = try #require(section.range(of: "```sh\n"))
        let end = try #require(section.range(of: "\n```", range: start.upperBound..<section.endIndex))
        let script = String(section[start.upperBound..<end.lowerBound])
        #expect(script.split(separator: "\n").count >= 12)

        let home = try TemporaryDirectory(), elsewhere = try TemporaryDirectory()
        // Stops the sandbox if a line fails before the block's own `kill`.
        let wrapped = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + script
        let result = try runProcess("/bin/bash", ["-c", wrapped], environment: [
            "HOME": home.path, "TMPDIR": elsewhere.path,
            "PATH": productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin",
        ], directory: elsewhere.path, timeout: 120)
        #expect(result.status == 0 && !result.timedOut, "the quick start failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Signed up and logged in as bob"), "\(result.stdout)")
        #expect(result.stdout.contains("Signed up and logged in as alice"), "\(result.stdout)")
        // bob's history: both of alice's messages, the file named; his search finds the file's message.
        #expect(result.stdout.contains("hello bob"), "\(result.stdout)")
        #expect(result.stdout.contains("my machine") && result.stdout.contains("machine.txt"), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").contains { $0.contains("\tops\tgroup\t") }, "dialogs lists ops:\n\(result.stdout)")
        // Alice's session lived in the fresh home, and logout ended it.
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/state/chatctl"))
    }
}
