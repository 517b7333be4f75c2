/// A `#compdef` file: one `_arguments` function per command; a command with
/// subcommands hands the rest of the line to the selected one (`*:: :->argument`).
struct ZshCompletion {
    let root: CommandSpec

    func render() -> String {
        let function = CompletionScript.functionName([root.name])
        var out = """
        #compdef \(root.name)
        # zsh completion for \(root.name); generated from its command declarations.
        # Install: save as _\(root.name) in a directory of $fpath, or source it.


        """
        for (path, chain) in root.allCommands() {
            out += commandFunction(path, chain) + "\n"
        }
        out += """
        if [ "$funcstack[1]" = "\(function)" ]; then
            \(function) "$@"
        else
            compdef \(function) \(root.name)
        fi

        """
        return out
    }

    func commandFunction(_ path: [String], _ chain: [CommandSpec]) -> String {
        let command = chain[chain.count - 1]
        var specs: [String] = []
        for option in chain.shownOptions { specs += Self.specs(for: option) }
        if chain.count == 1 { specs += ["'(- *)-V[Show the version.]'", "'(- *)--version[Show the version.]'"] }
        specs += Self.specs(for: HelpFormatter.helpOption)
        if command.subcommands.isEmpty {
            for argument in command.arguments {
                let action = Self.action(argument.completion)
                let message = Self.escaped(argument.name)
                if argument.isRepeating {
                    specs.append(CompletionScript.singleQuoted("*:\(message):\(action)"))
                } else {
                    let colons = argument.isOptional ? "::" : ":"
                    specs.append(CompletionScript.singleQuoted("\(colons)\(message):\(action)"))
                }
            }
        } else {
            specs.append("': :->subcommand'")
            specs.append("'*:: :->argument'")
        }
        var out = "\(CompletionScript.functionName(path))() {\n"
        out += "    local context curcontext=\"$curcontext\" state state_descr line ret=1\n"
        out += "    typeset -A opt_args\n"
        out += "    _arguments -C -s \\\n"
        out += specs.map { "        \($0)" }.joined(separator: " \\\n")
        out += " && ret=0\n"
        if !command.subcommands.isEmpty {
            out += "    case $state in\n"
            out += "        subcommand)\n"
            out += "            local -a subcommands\n"
            out += "            subcommands=(\n"
            for sub in command.subcommands {
                let entry = sub.name.replacing(":", with: "\\:") + ":" + sub.abstract
                out += "                \(CompletionScript.singleQuoted(entry))\n"
            }
            out += "            )\n"
            out += "            _describe -t subcommands \(CompletionScript.singleQuoted(path.joined(separator: " ") + " subcommand")) subcommands && ret=0\n"
            out += "            ;;\n"
            out += "        argument)\n"
            out += "            case $words[1] in\n"
            for sub in command.subcommands {
                out += "                \(CompletionScript.singleQuoted(sub.name))) \(CompletionScript.functionName(path + [sub.name])) && ret=0 ;;\n"
            }
            out += "            esac\n"
            out += "            ;;\n"
            out += "    esac\n"
        }
        out += "    return ret\n}\n"
        return out
    }

    /// `'(-v --verbose)--verbose[Log more.]'`, `'--login[Login.]:NAME: '`
    static func specs(for option: OptionSpec) -> [String] {
        var spellings = [option.longSpelling]
        if let short = option.short { spellings.insert("-" + String(short), at: 0) }
        // `*`: offered again after it was given; otherwise a given option is not.
        let exclusion = option.isRepeatable ? "*" : spellings.count > 1 ? "(" + spellings.joined(separator: " ") + ")" : ""
        var tail = "[" + escaped(option.shownHelp) + "]"
        if let metavar = option.metavar {
            tail += ":" + escaped(metavar) + ":" + action(option.completion)
        }
        return spellings.map { spelling in
            let equals = option.takesValue && spelling.hasPrefix("--") ? "=" : ""
            return CompletionScript.singleQuoted(exclusion + spelling + equals + tail)
        }
    }

    static func action(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: " "
        case .file: "_files"
        case .directory: "_files -/"
        case .choices(let choices): "(" + choices.map { $0.replacing(" ", with: "\\ ") }.joined(separator: " ") + ")"
        }
    }

    /// Escapes what `_arguments` treats specially inside `[help]` and messages.
    static func escaped(_ text: String) -> String {
        var result = ""
        for c in text {
            if c == "[" || c == "]" || c == ":" || c == "\\" { result.append("\\") }
            result.append(c)
        }
        return result
    }
}
