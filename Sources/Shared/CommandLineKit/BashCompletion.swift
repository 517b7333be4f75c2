/// A `complete -F` function: walks `COMP_WORDS` to find the command path
/// (skipping option values), then offers options, subcommands or values.
struct BashCompletion {
    let root: CommandSpec

    func render() -> String {
        let function = CompletionScript.functionName([root.name])
        let commands = root.allCommands()
        var out = """
        # bash completion for \(root.name); generated from its command declarations.
        # Install: source this file, or save it as /etc/bash_completion.d/\(root.name)

        \(function)_reply() {
            mapfile -t COMPREPLY < <(compgen "$@")
        }

        \(function)() {
            local cur="${COMP_WORDS[COMP_CWORD]}"
            local path=\(CompletionScript.singleQuoted(root.name)) npos=0 skip=0 pending="" rest=0 i word
            for ((i = 1; i < COMP_CWORD; i++)); do
                word="${COMP_WORDS[i]}"
                # bash splits `--opt=value` at '='; the value follows.
                if ((skip)) && [[ $word == "=" ]]; then continue; fi
                if ((skip)); then skip=0; continue; fi
                if ((rest)); then npos=$((npos + 1)); continue; fi
                case "$path" in

        """
        for (path, chain) in commands {
            let command = chain[chain.count - 1]
            out += "            \(CompletionScript.singleQuoted(path.joined(separator: " "))))\n"
            out += "                case \"$word\" in\n"
            let values = CompletionScript.valueSpellings(chain).map(\.spelling)
            if !values.isEmpty {
                out += "                    \(values.map { CompletionScript.singleQuoted($0) }.joined(separator: "|"))) skip=1; pending=\"$word\" ;;\n"
            }
            out += "                    --) rest=1 ;;\n"
            out += "                    -*) ;;\n"
            if !command.subcommands.isEmpty {
                out += "                    \(command.subcommands.map { CompletionScript.singleQuoted($0.name) }.joined(separator: "|")))\n"
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
        for (path, chain) in commands {
            out += "            \(CompletionScript.singleQuoted(path.joined(separator: " "))))\n"
            out += "                case \"$pending\" in\n"
            for (spelling, option) in CompletionScript.valueSpellings(chain) {
                out += "                    \(CompletionScript.singleQuoted(spelling))) \(reply(option.completion)) ;;\n"
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
        for (path, chain) in commands {
            let words = CompletionScript.spellings(chain).joined(separator: " ")
            out += "            \(CompletionScript.singleQuoted(path.joined(separator: " ")))) \(function)_reply -W \(CompletionScript.singleQuoted(words)) -- \"$cur\" ;;\n"
        }
        out += """
                esac
                return 0
            fi
            case "$path" in

        """
        for (path, chain) in commands {
            let command = chain[chain.count - 1]
            out += "            \(CompletionScript.singleQuoted(path.joined(separator: " "))))\n"
            out += "                case \"$npos\" in\n"
            if !command.subcommands.isEmpty {
                let names = command.subcommands.map(\.name).joined(separator: " ")
                out += "                    0) \(function)_reply -W \(CompletionScript.singleQuoted(names)) -- \"$cur\" ;;\n"
            } else {
                for (position, argument) in command.arguments.enumerated() {
                    let pattern = argument.isRepeating ? "*" : String(position)
                    out += "                    \(pattern)) \(reply(argument.completion)) ;;\n"
                    if argument.isRepeating { break }
                }
            }
            out += "                esac ;;\n"
        }
        out += """
            esac
            return 0
        }

        complete -F \(function) \(root.name)

        """
        return out
    }

    func reply(_ completion: CompletionKind) -> String {
        let function = CompletionScript.functionName([root.name])
        switch completion {
        case .none:
            return "COMPREPLY=()"
        case .file:
            return "compopt -o filenames 2>/dev/null; \(function)_reply -f -- \"$cur\""
        case .directory:
            return "compopt -o filenames 2>/dev/null; \(function)_reply -d -- \"$cur\""
        case .choices(let choices):
            return "\(function)_reply -W \(CompletionScript.singleQuoted(choices.joined(separator: " "))) -- \"$cur\""
        }
    }
}
