/// `complete -c` lines guarded by `__<root>_at PATH`, a generated function that
/// walks the tokens before the cursor (skipping option values) to find the
/// command path. It is used instead of `__fish_seen_subcommand_from` because
/// that one also fires on option values and positionals that equal a command name.
struct FishCompletion {
    let tree: CompletionTree

    func render() -> String {
        let prefix = "_" + CompletionScript.functionName([tree.program])
        var out = """
        # fish completion for \(tree.program); generated from its command declarations.
        # Install: save as ~/.config/fish/completions/\(tree.program).fish, or source it.

        function \(prefix)_path
            set -l path \(q(tree.program))
            set -l npos 0
            set -l skip 0
            set -l rest 0
            for word in (commandline -opc)[2..-1]
                if test $skip -eq 1
                    set skip 0
                    continue
                end
                if test $rest -eq 1
                    set npos (math $npos + 1)
                    continue
                end
                switch $path

        """
        for command in tree.commands {
            out += "            case \(q(command.words))\n"
            out += "                switch $word\n"
            let values = command.valueSpellings.map(\.spelling)
            if !values.isEmpty {
                out += "                    case \(values.map(q).joined(separator: " "))\n"
                out += "                        set skip 1\n"
            }
            out += "                    case '--'\n"
            out += "                        set rest 1\n"
            out += "                    case '-*'\n"
            if !command.subcommands.isEmpty {
                out += "                    case \(command.subcommands.map { q($0.name) }.joined(separator: " "))\n"
                out += "                        if test $npos -eq 0\n"
                out += "                            set path \"$path $word\"\n"
                out += "                        else\n"
                out += "                            set npos (math $npos + 1)\n"
                out += "                        end\n"
            }
            out += "                    case '*'\n"
            out += "                        set npos (math $npos + 1)\n"
            out += "                end\n"
        }
        out += """
                end
            end
            echo $path
            echo $npos
        end

        # True when the tokens before the cursor select exactly this command path.
        function \(prefix)_at
            test (\(prefix)_path)[1] = "$argv"
        end

        # `__x_arg N PATH...`: at PATH, with N positional values already given
        # (`N+`: at least N, for a repeating argument).
        function \(prefix)_arg
            set -l state (\(prefix)_path)
            test $state[1] = "$argv[2..-1]"; or return 1
            switch $argv[1]
                case '*+'
                    test $state[2] -ge (string trim -r -c + -- $argv[1])
                case '*'
                    test $state[2] -eq $argv[1]
            end
        end

        complete -c \(tree.program) -f

        """
        for command in tree.commands {
            let head = "complete -c \(tree.program) -n " + q("\(prefix)_at " + command.words)
            for sub in command.subcommands {
                out += "\(head) -a \(q(sub.name)) -d \(q(sub.abstract))\n"
            }
            for option in command.options {
                var line = "\(head) -l \(q(option.long))"
                if let short = option.short { line += " -s \(q(String(short)))" }
                if option.takesValue { line += " -r" + valueFlags(option.completion) }
                out += line + " -d \(q(option.shownHelp))\n"
            }
            for (position, argument) in command.arguments.enumerated() {
                let index = argument.isRepeating ? "\(position)+" : String(position)
                let condition = q("\(prefix)_arg \(index) " + command.words)
                out += "complete -c \(tree.program) -n \(condition)\(valueFlags(argument.completion))\n"
            }
        }
        return out
    }

    func q(_ text: String) -> String { CompletionScript.singleQuoted(text, fish: true) }

    func valueFlags(_ completion: CompletionKind) -> String {
        switch completion {
        case .none: " -f"
        case .file: " -F"
        case .directory: " -f -a '(__fish_complete_directories)'"
        case .choices(let choices): " -f -a \(q(choices.joined(separator: " ")))"
        }
    }
}
