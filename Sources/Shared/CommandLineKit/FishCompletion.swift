/// `complete -c` lines guarded by `__<root>_at PATH`, a generated function that
/// walks the tokens before the cursor (skipping option values) to find the
/// command path. It is used instead of `__fish_seen_subcommand_from` because
/// that one also fires on option values and positionals that equal a command name.
struct FishCompletion {
    let root: CommandSpec

    func render() -> String {
        let prefix = "_" + CompletionScript.functionName([root.name])
        let commands = root.allCommands()
        var out = """
        # fish completion for \(root.name); generated from its command declarations.
        # Install: save as ~/.config/fish/completions/\(root.name).fish, or source it.

        function \(prefix)_path
            set -l path \(CompletionScript.singleQuoted(root.name, fish: true))
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
        for (path, chain) in commands {
            let command = chain[chain.count - 1]
            out += "            case \(q(path.joined(separator: " ")))\n"
            out += "                switch $word\n"
            let values = CompletionScript.valueSpellings(chain).map(\.spelling)
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

        complete -c \(root.name) -f

        """
        for (path, chain) in commands {
            let command = chain[chain.count - 1]
            let condition = "-n " + q("\(prefix)_at " + path.joined(separator: " "))
            let head = "complete -c \(root.name) \(condition)"
            for sub in command.subcommands {
                out += "\(head) -a \(q(sub.name)) -d \(q(sub.abstract))\n"
            }
            var options = chain.shownOptions
            if path.count == 1 { options.append(HelpFormatter.versionOption) }
            options.append(HelpFormatter.helpOption)
            for option in options {
                var line = "\(head) -l \(q(option.long))"
                if let short = option.short { line += " -s \(q(String(short)))" }
                if option.takesValue { line += " -r" + valueFlags(option.completion) }
                out += line + " -d \(q(option.shownHelp))\n"
            }
            if command.subcommands.isEmpty {
                for (position, argument) in command.arguments.enumerated() {
                    let index = argument.isRepeating ? "\(position)+" : String(position)
                    let condition = q("\(prefix)_arg \(index) " + path.joined(separator: " "))
                    out += "complete -c \(root.name) -n \(condition)\(valueFlags(argument.completion))\n"
                    if argument.isRepeating { break }
                }
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
