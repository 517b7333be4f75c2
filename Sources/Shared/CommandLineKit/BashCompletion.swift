/// A `complete -F` function: walks `COMP_WORDS` to find the command path
/// (skipping option values), then offers options, subcommands or values.
struct BashCompletion {
    let tree: CompletionTree

    var function: String { CompletionScript.functionName([tree.program]) }

    func render() -> String {
        var out = """
        # bash completion for \(tree.program); generated from its command declarations.
        # Install: source this file, or save it as /etc/bash_completion.d/\(tree.program)

        \(function)_reply() {
            mapfile -t COMPREPLY < <(compgen "$@")
        }

        \(function)() {
            local cur="${COMP_WORDS[COMP_CWORD]}"
            local path=\(q(tree.program)) npos=0 skip=0 pending="" rest=0 i word
            for ((i = 1; i < COMP_CWORD; i++)); do
                word="${COMP_WORDS[i]}"
                # bash splits `--opt=value` at '='; the value follows.
                if ((skip)) && [[ $word == "=" ]]; then continue; fi
                if ((skip)); then skip=0; continue; fi
                if ((rest)); then npos=$((npos + 1)); continue; fi
                case "$path" in

        """
        for command in tree.commands {
            out += "            \(q(command.words)))\n"
            out += "                case \"$word\" in\n"
            let values = command.valueSpellings.map(\.spelling)
            if !values.isEmpty {
                out += "                    \(values.map(q).joined(separator: "|"))) skip=1; pending=\"$word\" ;;\n"
            }
            out += "                    --) rest=1 ;;\n"
            out += "                    -*) ;;\n"
            if !command.subcommands.isEmpty {
                out += "                    \(command.subcommands.map { q($0.name) }.joined(separator: "|")))\n"
                out += "                        if ((npos == 0)); then path=\"$path $word\"; else npos=$((npos + 1)); fi ;;\n"
            }
            out += "                    *) npos=$((npos + 1)) ;;\n"
            out += "                esac ;;\n"
        }
        out += """
                esac
            done
            [[ $cur == "=" ]] && cur=""
            if ((skip)); then
                case "$path" in

        """
        for command in tree.commands {
            out += "            \(q(command.words)))\n"
            out += "                case \"$pending\" in\n"
            for (spelling, option) in command.valueSpellings {
                out += "                    \(q(spelling))) \(reply(option.completion)) ;;\n"
            }
            out += "                esac ;;\n"
        }
        out += """
                esac
                return 0
            fi
            if [[ $cur == -* ]] && ((rest == 0)); then
                case "$path" in

        """
        for command in tree.commands {
            out += "            \(q(command.words))) \(function)_reply -W \(q(command.spellings.joined(separator: " "))) -- \"$cur\" ;;\n"
        }
        out += """
                esac
                return 0
            fi
            case "$path" in

        """
        for command in tree.commands {
            out += "            \(q(command.words)))\n"
            out += "                case \"$npos\" in\n"
            if !command.subcommands.isEmpty {
                out += "                    0) \(function)_reply -W \(q(command.subcommands.map(\.name).joined(separator: " "))) -- \"$cur\" ;;\n"
            }
            for (position, argument) in command.arguments.enumerated() {
                out += "                    \(argument.isRepeating ? "*" : String(position))) \(reply(argument.completion)) ;;\n"
            }
            out += "                esac ;;\n"
        }
        out += """
            esac
            return 0
        }

        complete -F \(function) \(tree.program)

        """
        return out
    }

    func q(_ text: String) -> String { CompletionScript.singleQuoted(text) }

    func reply(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: "COMPREPLY=()"
        case .file: "compopt -o filenames 2>/dev/null; \(function)_reply -f -- \"$cur\""
        case .directory: "compopt -o filenames 2>/dev/null; \(function)_reply -d -- \"$cur\""
        case .choices(let choices): "\(function)_reply -W \(q(choices.joined(separator: " "))) -- \"$cur\""
        }
    }
}
