/// Shell completion scripts generated from the command tree.
package enum CompletionScript {
    package enum Shell: String, Sendable, CaseIterable, ExpressibleByArgument { case bash, zsh, fish }

    package static func render(_ shell: Shell, root: CommandSpec) -> String {
        switch shell {
        case .bash: BashCompletion(root: root).render()
        case .zsh: ZshCompletion(root: root).render()
        case .fish: FishCompletion(root: root).render()
        }
    }

    /// A shell function name built from a command path: `_chatctl_login`.
    static func functionName(_ path: [String]) -> String {
        "_" + path.map { name in String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" }) }.joined(separator: "_")
    }

    /// `'it'\''s'`: safe inside any POSIX-like shell (and fish, which reads `\'` in single quotes).
    static func singleQuoted(_ text: String, fish: Bool = false) -> String {
        var result = "'"
        for c in text {
            if c == "'" { result += fish ? "\\'" : "'\\''" }
            else if c == "\\" && fish { result += "\\\\" }
            else { result.append(c) }
        }
        return result + "'"
    }

    /// Every spelling of the options valid at the end of `chain` (plus the built-ins).
    static func spellings(_ chain: [CommandSpec]) -> [String] {
        var words: [String] = []
        for option in chain.shownOptions {
            words.append(option.longSpelling)
            if let short = option.short { words.append("-" + String(short)) }
        }
        if chain.count == 1 { words += ["--version", "-V"] }
        words += ["--help", "-h"]
        return words
    }

    /// Spellings of the value-taking options valid at the end of `chain`.
    static func valueSpellings(_ chain: [CommandSpec]) -> [(spelling: String, option: OptionSpec)] {
        var result: [(spelling: String, option: OptionSpec)] = []
        for option in chain.shownOptions where option.takesValue {
            result.append((option.longSpelling, option))
            if let short = option.short { result.append(("-" + String(short), option)) }
        }
        return result
    }
}
