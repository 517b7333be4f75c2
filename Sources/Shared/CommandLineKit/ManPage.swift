/// A man(7) page generated from the command tree.
package enum ManPage {
    /// A section the tree cannot know, e.g. EXIT STATUS, ENVIRONMENT, FILES.
    /// Blank lines in `body` separate paragraphs.
    package struct Section: Sendable, Equatable {
        package var title: String
        package var body: String
        package init(title: String, body: String) { self.title = title; self.body = body }
    }

    /// - Parameters:
    ///   - date: shown in the footer as given, e.g. "2026-11-30".
    ///   - extraSections: appended after COMMANDS, in order.
    package static func render(root: CommandSpec, version: String, date: String, extraSections: [Section] = []) -> String {
        var lines: [String] = []
        lines.append(".TH \(quoted(root.name.uppercased())) 1 \(quoted(date)) \(quoted(root.name + " " + version)) \"User Commands\"")
        lines.append(".SH NAME")
        lines.append(escaped(root.name) + " \\- " + escaped(root.abstract))
        lines.append(".SH SYNOPSIS")
        for (path, chain) in root.allCommands() where chain[chain.count - 1].runsItself || path.count == 1 {
            lines.append(".PP")
            lines.append(synopsis(path, chain))
        }
        lines.append(".SH DESCRIPTION")
        lines += paragraphs(root.discussion ?? root.abstract)
        lines.append(".SH OPTIONS")
        var rootOptions = (root.options + root.inheritedOptions).filter { !$0.isHidden }
        rootOptions.append(HelpFormatter.versionOption)
        rootOptions.append(HelpFormatter.helpOption)
        for option in rootOptions { lines += item(option) }
        let commands = root.allCommands().dropFirst()
        if !commands.isEmpty {
            lines.append(".SH COMMANDS")
            for (path, chain) in commands {
                let command = chain[chain.count - 1]
                lines.append(".SS \(quoted(path.joined(separator: " ")))")
                lines += paragraphs(command.abstract)
                if let discussion = command.discussion, !discussion.isEmpty { lines += paragraphs(discussion) }
                for argument in command.arguments {
                    lines.append(".TP")
                    lines.append("\\fI" + escaped(argument.name) + "\\fR" + (argument.isRepeating ? " ..." : ""))
                    lines.append(escaped(argument.help))
                }
                for option in command.options + command.inheritedOptions where !option.isHidden { lines += item(option) }
            }
        }
        // EXAMPLES goes just before SEE ALSO, where man-pages(7) puts it.
        let seeAlso = extraSections.firstIndex { $0.title.uppercased() == "SEE ALSO" } ?? extraSections.count
        for section in extraSections[..<seeAlso] { lines += sectionLines(section) }
        lines += examples(root.allCommands())
        for section in extraSections[seeAlso...] { lines += sectionLines(section) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func sectionLines(_ section: Section) -> [String] {
        [".SH \(quoted(section.title.uppercased()))"] + paragraphs(section.body)
    }

    /// One EXAMPLES section, a subsection per command that has examples: each
    /// example's comment, then its command line unfilled and indented.
    static func examples(_ commands: [(path: [String], chain: [CommandSpec])]) -> [String] {
        let documented = commands.filter { !$0.chain[$0.chain.count - 1].examples.isEmpty }
        guard !documented.isEmpty else { return [] }
        var lines = [".SH EXAMPLES"]
        for (path, chain) in documented {
            lines.append(".SS \(quoted(path.joined(separator: " ")))")
            for example in chain[chain.count - 1].examples {
                lines += [".PP", escaped(example.comment), ".RS 4", ".nf", escaped(example.command), ".fi", ".RE"]
            }
        }
        return lines
    }

    static func synopsis(_ path: [String], _ chain: [CommandSpec]) -> String {
        let command = chain[chain.count - 1]
        var words = path.map { "\\fB" + escaped($0) + "\\fR" }
        if !chain.validOptions.isEmpty { words.append("[\\fIoptions\\fR]") }
        for argument in command.arguments {
            var word = "\\fI" + escaped(argument.name) + "\\fR"
            if argument.isRepeating { word += " ..." }
            words.append(argument.isOptional ? "[" + word + "]" : word)
        }
        if !command.subcommands.isEmpty {
            words.append(command.runsItself ? "[\\fIcommand\\fR]" : "\\fIcommand\\fR")
        }
        return words.joined(separator: " ")
    }

    static func item(_ option: OptionSpec) -> [String] {
        var label = ""
        if let short = option.short { label += "\\fB\\-" + escaped(String(short)) + "\\fR, " }
        label += "\\fB" + escaped(option.longSpelling) + "\\fR"
        if let metavar = option.metavar { label += " \\fI" + escaped(metavar) + "\\fR" }
        return [".TP", label, escaped(option.shownHelp)]
    }

    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false)
            .split(whereSeparator: { $0.allSatisfy { $0 == " " } }) {
            lines.append(".PP")
            lines += paragraph.map { escaped(String($0)) }
        }
        return lines
    }

    /// Escapes roff: backslashes, hyphens (so they stay ASCII minus signs),
    /// anything beyond ASCII as `\[uXXXX]` (troff reads its input as Latin-1), and
    /// a leading `.` or `'` that would otherwise start a request.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
    }
}
