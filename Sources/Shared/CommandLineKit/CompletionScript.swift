/// Shell completion scripts generated from the command tree.
package enum CompletionScript {
    package enum Shell: String, Sendable, CaseIterable, ExpressibleByArgument { case bash, zsh, fish }

    package static func render(_ shell: Shell, root: CommandSpec) -> String {
        let tree = CompletionTree(root: root)
        return switch shell {
        case .bash: BashCompletion(tree: tree).render()
        case .zsh: ZshCompletion(tree: tree).render()
        case .fish: FishCompletion(tree: tree).render()
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
}
