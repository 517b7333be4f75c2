#if canImport(Glibc)
import Glibc
#endif

/// Long text on a terminal goes through a pager, as git and gh do: `$CHATCTL_PAGER`,
/// then `$PAGER`, else `less -R`; `less` gets `LESS=FRX` when LESS is unset (quit
/// at once if it fits, keep colours, leave the text on the screen).
struct Pager {
    /// What `/bin/sh -c` runs.
    let command: String

    /// The pager the environment asks for; nil when it asks for none (set but
    /// empty, or `cat`), or when the default `less` is not installed.
    init?(environment: [String: String]) {
        let chosen = environment["CHATCTL_PAGER"] ?? environment["PAGER"]
        if let chosen {
            let trimmed = chosen.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            guard !trimmed.isEmpty, trimmed != "cat" else { return nil }
            command = chosen
        } else {
            guard Self.findsProgram("less", path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else { return nil }
            command = "less -R"
        }
    }

    /// Whether `text` takes more rows than the screen has (a line wider than
    /// the screen takes several).
    static func overflows(_ text: String, rows: Int, columns: Int) -> Bool {
        var used = 0
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            used += max(1, (line.count + columns - 1) / max(columns, 1))
            if used >= rows { return true }
        }
        return false
    }

    /// Runs the pager with `text` on its standard input and the terminal on its
    /// output; returns when it ends. False when it could not be run at all (the
    /// shell found no such program), so the caller shows the text itself.
    /// A pager that quits before reading everything (q in less) is no error: the
    /// rest is dropped (SIGPIPE is ignored, so a write just fails with EPIPE).
    func run(_ text: String, environment: [String: String]) -> Bool {
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        guard let status = FedProgram.run("/bin/sh", ["/bin/sh", "-c", command], environment: variables, feeding: text) else {
            return false
        }
        // 126 and 127: the shell could not find or run the program (and said so on stderr).
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        return !(exited && (code == 126 || code == 127))
    }

    /// Whether an executable `name` is in one of `path`'s directories.
    static func findsProgram(_ name: String, path: String) -> Bool {
        path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}
