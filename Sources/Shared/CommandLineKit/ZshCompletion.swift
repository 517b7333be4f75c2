/// A `#compdef` file: one `_arguments` function per command; a command with
/// subcommands hands the rest of the line to the selected one (`*:: :->argument`).
struct ZshCompletion {
    let tree: CompletionTree

    func render() -> String {
        let function = CompletionScript.functionName([tree.program])
        var out = """
        #compdef \(tree.program)
        # zsh completion for \(tree.program); generated from its command declarations.
        # Install: save as _\(tree.program) in a directory of $fpath, or source it.


        """
        for command in tree.commands {
            out += commandFunction(command) + "\n"
        }
        out += """
        if [ "$funcstack[1]" = "\(function)" ]; then
            \(function) "$@"
        else
            compdef \(function) \(tree.program)
        fi

        """
        return out
    }

    func commandFunction(_ command: CompletionTree.Command) -> String {
        let path = command.path
        var specs = command.options.flatMap(Self.specs)
        for argument in command.arguments {
            let action = Self.action(argument.completion)
            let message = Self.escaped(argument.name)
            let colons = argument.isRepeating ? "*:" : argument.isOptional ? "::" : ":"
            specs.append(CompletionScript.singleQuoted("\(colons)\(message):\(action)"))
        }
        if !command.subcommands.isEmpty {
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
        let spellings = CompletionTree.Command.spellings(of: option).reversed()
        // `*`: offered again after it was given; `(- *)`: --version ends the line; otherwise a given option is not.
        let exclusion = option == HelpFormatter.versionOption ? "(- *)" : option.isRepeatable ? "*"
            : spellings.count > 1 ? "(" + spellings.joined(separator: " ") + ")" : ""
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
