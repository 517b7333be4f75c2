/// Binds argv to a `CommandSpec` tree, and renders help and usage from it.
///
/// Behaviour choices:
/// - `parse` takes the arguments *after* the program name
///   (`Array(CommandLine.arguments.dropFirst())`).
/// - A value option takes the next element even if it starts with `-`, unless
///   that element is itself an option valid at that point (or `--`); so
///   `--login -x` binds "-x", `--login --json` is "missing value". `--login=--json`
///   always works.
/// - A repeated value option is not an error: `value(_:)` returns the last one,
///   `values(_:)` all of them. A repeated flag is harmless.
/// - `--help`/`-h` anywhere before `--` wins over every usage error and gives the
///   help of the deepest command named so far (`chatctl --help login` → login).
/// - A value outside an option's or argument's `.choices`, or one its `rule` (its
///   type's) refuses, is a usage error that says why (the type's `refusal`) or what
///   was expected; the text a user typed is quoted back with control characters
///   shown as escapes.
package struct CommandLineParser: Sendable {
    package let root: CommandSpec

    package init(root: CommandSpec) { self.root = root }

    package func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        let tokens = ArgumentToken.tokenize(arguments)
        var binder = Binder(root: root, tokens: tokens)
        do {
            return try binder.bind()
        } catch {
            let asksForHelp = tokens.prefix { $0.kind != .terminator }.contains { $0.raw == "--help" || $0.raw == "-h" }
            if asksForHelp { return .help(path: binder.path) }
            throw error
        }
    }

    /// Full help text for a command path (usage, abstract, arguments, options,
    /// subcommands), wrapped at 80 columns, without a trailing newline.
    package func help(for path: [String]) -> String {
        HelpFormatter(chain: root.resolvedChain(for: path)).help()
    }

    /// One-line usage, e.g. "usage: chatctl login [<options>]"; the options are
    /// spelled out when that still fits in 80 columns.
    package func usage(for path: [String]) -> String {
        HelpFormatter(chain: root.resolvedChain(for: path)).usageLine(prefix: "usage: ")
    }

    /// What follows a usage error's line: the usage with every option, then the examples.
    package func errorUsage(for path: [String]) -> String {
        HelpFormatter(chain: root.resolvedChain(for: path)).errorUsage()
    }
}

/// The mutable state of one parse: walks the tokens once, left to right.
private struct Binder {
    let tokens: [ArgumentToken]
    var chain: [CommandSpec]
    var index = 0
    var positionals: [String] = []
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var helpRequested = false

    init(root: CommandSpec, tokens: [ArgumentToken]) {
        self.chain = [root]
        self.tokens = tokens
    }

    var current: CommandSpec { chain[chain.count - 1] }
    var path: [String] { chain.map(\.name) }
    var isRoot: Bool { chain.count == 1 }
    var options: [OptionSpec] { chain.validOptions }

    func fail(_ message: String) -> UsageError { UsageError(message: message, path: path) }

    func option(long name: String) -> OptionSpec? { options.first { $0.isSpelt(name) } }
    func option(short c: Character) -> OptionSpec? { options.first { $0.short == c } }
    func isHelp(short c: Character) -> Bool { c == "h" && option(short: "h") == nil }
    /// `-V`: the root's `--version`, unless the root took the letter itself.
    func isVersion(short c: Character) -> Bool { c == "V" && isRoot && option(short: "V") == nil }
    func refused(long name: String) -> RefusedOption? { current.refusedOptions.first { $0.long == name } }
    /// Long spellings a "did you mean" may suggest: hidden options and old names are never offered.
    var suggestions: [String] { options.filter { !$0.isHidden }.map(\.longSpelling) + ["--help"] }

    /// Whether this element would be read as an option here (so it is not a value).
    func isKnownOption(_ token: ArgumentToken) -> Bool {
        switch token.kind {
        case .long(let name, _):
            return option(long: name) != nil || refused(long: name) != nil || name == "help" || (name == "version" && isRoot)
        case .short(let chars):
            return option(short: chars[0]) != nil || isHelp(short: chars[0]) || isVersion(short: chars[0])
        case .terminator:
            return true
        case .value:
            return false
        }
    }

    mutating func bind() throws(UsageError) -> ParseOutcome {
        var afterTerminator = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if afterTerminator {
                positionals.append(token.raw)
                continue
            }
            switch token.kind {
            case .terminator:
                afterTerminator = true
            case .long(let name, let inline):
                if let outcome = try bindLong(name, inline) { return outcome }
            case .short(let chars):
                if let outcome = try bindShort(chars, raw: token.raw) { return outcome }
            case .value:
                if let outcome = try bindValue(token.raw) { return outcome }
            }
        }
        if helpRequested { return .help(path: path) }
        // A pure group (subcommands, nothing of its own, like the root) shows its
        // help; a command that also declares options or arguments runs itself
        // (`chatctl dialogs` lists, `chatctl dialogs create` creates).
        if !current.runsItself && positionals.isEmpty {
            return .help(path: path)
        }
        return .run(try bindPositionals())
    }

    mutating func bindLong(_ name: String, _ inline: String?) throws(UsageError) -> ParseOutcome? {
        if let spec = option(long: name) {
            try record(spec, spelling: "--" + name, inline: inline)
            return nil
        }
        if name == "help" || (name == "version" && isRoot) {
            if inline != nil { throw fail("'--\(name)' does not take a value") }
            if name == "help" { helpRequested = true; return nil }
            if !helpRequested { return .version }
            return nil
        }
        // Stops at the name: a value after it (a password) is never read, nor quoted back.
        if let refusal = refused(long: name) { throw fail(refusal.message) }
        var candidates = suggestions
        if isRoot { candidates.append("--version") }
        throw fail(Self.unknown("option", "--" + name, candidates))
    }

    mutating func bindShort(_ chars: [Character], raw: String) throws(UsageError) -> ParseOutcome? {
        var position = 0
        while position < chars.count {
            let c = chars[position]
            position += 1
            if let spec = option(short: c) {
                if spec.takesValue {
                    // `-lalice`: the rest of the bundle is the value.
                    let rest = position < chars.count ? String(chars[position...]) : nil
                    try record(spec, spelling: "-" + String(c), inline: rest)
                    return nil
                }
                try record(spec, spelling: "-" + String(c), inline: nil)
            } else if isHelp(short: c) {
                helpRequested = true
            } else if isVersion(short: c) {
                if !helpRequested { return .version }
            } else if chars.count == 1 {
                throw fail("unknown option \(Self.quoted(raw))")
            } else {
                // `-json` is most likely a long option typed with one dash.
                let message = Self.unknown("option", raw, suggestions)
                if message.hasSuffix("?)") { throw fail(message) }
                throw fail("unknown option \(Self.quoted("-" + String(c))) in \(Self.quoted(raw))")
            }
        }
        return nil
    }

    mutating func bindValue(_ raw: String) throws(UsageError) -> ParseOutcome? {
        guard positionals.isEmpty, !current.subcommands.isEmpty else {
            positionals.append(raw)
            return nil
        }
        if raw == "help" && current.subcommand(named: "help")?.subcommands.isEmpty ?? true {
            return try bindHelpCommand()
        }
        if let sub = current.subcommand(named: raw) {
            chain.append(sub)
            return nil
        }
        if current.arguments.isEmpty {
            throw fail(unknownCommand(raw))
        }
        positionals.append(raw)
        return nil
    }

    /// "unknown command 'crate' (did you mean 'create'?)": the nearest of the subcommands'
    /// names, old names (answered with the new) and the words the command knows people
    /// mean something else by (`me name` → 'chatctl me set --full-name').
    func unknownCommand(_ typed: String) -> String {
        var meant: [String: String] = [:]
        for sub in current.subcommands {
            for name in [sub.name] + sub.aliases where meant[name] == nil { meant[name] = sub.name }
        }
        for (word, line) in current.meanings.sorted(by: { $0.key < $1.key }) where meant[word] == nil {
            meant[word] = path.joined(separator: " ") + " " + line
        }
        let candidates = current.subcommands.flatMap { [$0.name] + $0.aliases } + current.meanings.keys.sorted()
        guard let best = EditDistance.bestMatch(for: typed, among: candidates), let suggestion = meant[best] else {
            return "unknown command \(Self.quoted(typed))"
        }
        return "unknown command \(Self.quoted(typed)) (did you mean '\(suggestion)'?)"
    }

    /// `chatctl help login`: the remaining values name the command whose help
    /// to show; `chatctl help --man` asks for the man page (of the whole tree).
    mutating func bindHelpCommand() throws(UsageError) -> ParseOutcome {
        var afterTerminator = false
        var manual = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token.kind == .terminator { afterTerminator = true; continue }
            if !afterTerminator, case .long("man", nil) = token.kind { manual = true; continue }
            guard token.kind == .value || afterTerminator else { continue }
            if let sub = current.subcommand(named: token.raw) {
                chain.append(sub)
            } else if current.subcommands.isEmpty {
                throw fail("unexpected argument \(Self.quoted(token.raw))")
            } else {
                throw fail(unknownCommand(token.raw))
            }
        }
        return manual ? .manual : .help(path: path)
    }

    mutating func record(_ spec: OptionSpec, spelling: String, inline: String?) throws(UsageError) {
        guard spec.takesValue else {
            if inline != nil { throw fail("'\(spelling)' does not take a value") }
            flags.insert(spec.long)
            return
        }
        var value = inline
        if value == nil, index < tokens.count, !isKnownOption(tokens[index]) {
            value = tokens[index].raw
            index += 1
        }
        guard let value else { throw fail("missing value for option '\(spelling)'") }
        try check(value, against: spec.completion, spec.rule, for: "option '\(spelling)'")
        values[spec.long, default: []].append(value)
    }

    /// The one place a value is judged: the declared choices (with "did you mean"),
    /// then the rule of its type.
    func check(_ value: String, against completion: CompletionKind, _ rule: ValueRule?, for what: String) throws(UsageError) {
        if case .choices(let choices) = completion, !choices.contains(value) {
            var message = "invalid value \(Self.quoted(value)) for \(what); expected one of: " + choices.joined(separator: ", ")
            if let best = EditDistance.bestMatch(for: value, among: choices) {
                message = "invalid value \(Self.quoted(value)) for \(what) (did you mean '\(best)'?)"
            }
            throw fail(message)
        }
        if let rule, !rule.accepts(value) {
            if let reason = rule.refusal(of: value) { throw fail("invalid value \(Self.quoted(value)) for \(what): \(reason)") }
            throw fail("invalid value \(Self.quoted(value)) for \(what); expected \(rule.expected)")
        }
    }

    func bindPositionals() throws(UsageError) -> ParsedCommand {
        var bound: [String: [String]] = [:]
        var remaining = positionals[...]
        for argument in current.arguments {
            if argument.isRepeating {
                if remaining.isEmpty && !argument.isOptional { throw fail("missing argument \(argument.name)") }
                for value in remaining { try check(value, against: argument.completion, argument.rule, for: argument.name) }
                bound[argument.name] = Array(remaining)
                remaining = []
            } else if let value = remaining.first {
                try check(value, against: argument.completion, argument.rule, for: argument.name)
                bound[argument.name] = [value]
                remaining = remaining.dropFirst()
            } else if !argument.isOptional {
                throw fail("missing argument \(argument.name)")
            }
        }
        if let extra = remaining.first {
            // A command of options alone says so: `dialogs create --group ops bob` meant `--with @bob`.
            guard current.arguments.isEmpty, !isRoot else { throw fail("unexpected argument \(Self.quoted(extra))") }
            throw fail("unexpected argument \(Self.quoted(extra)): '\(path.joined(separator: " "))' takes only options")
        }
        return ParsedCommand(path: path, flags: flags, optionValues: values, argumentValues: bound)
    }

    /// "unknown option '--jsn' (did you mean '--json'?)"
    static func unknown(_ what: String, _ typed: String, _ candidates: [String]) -> String {
        let message = "unknown \(what) \(quoted(typed))"
        let strip = { (s: String) in String(s.drop { $0 == "-" }) }
        let bare = candidates.map(strip)
        guard let best = EditDistance.bestMatch(for: strip(typed), among: bare),
              let original = candidates.first(where: { strip($0) == best }) else { return message }
        return message + " (did you mean '\(original)'?)"
    }

    /// `'text'` as typed, but a control character (an escape sequence's ESC, a
    /// line break, a bidi override) shown as `\u{1B}`: an error quotes it to a terminal.
    static func quoted(_ text: String) -> String {
        var shown = "'"
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown + "'"
    }
}
