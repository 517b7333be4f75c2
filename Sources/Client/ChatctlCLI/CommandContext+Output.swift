import Presentation

extension CommandContext {
    /// Colour unless NO_COLOR is set to something (no-color.org: set but empty
    /// does not count) or the terminal is `dumb`.
    static func colorAllowed(by environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Listings (`dialogs`, `users`, …): aligned under a header for a person on a
    /// terminal, tab-separated rows without a header for a program in a pipe.
    var listingLayout: Listing.Layout {
        io.stdoutIsTerminal ? .aligned(width: terminalWidth) : .tabSeparated
    }

    /// What every command that changes something prints, the same way (docs/cli-output.md,
    /// "What a change says"): with --json the changed object on stdout and nothing more; else
    /// one line on stderr naming the change (`chatctl: muted 'ops' until 14:00`), and stdout
    /// stays empty for what a script reads.
    func tellChange(_ line: @autoclosure () -> String, json: String?) {
        if let json { io.writeOut(json.hasSuffix("\n") ? json : json + "\n") } else { io.warn(line()) }
    }

    /// `text` to stdout: through the pager when stdout is a terminal too short
    /// for it and `pager` allows it; straight out otherwise (a pipe never pages).
    func writeOut(_ text: String, pager allowed: Bool) {
        if allowed, io.stdoutIsTerminal, let rows = io.stdoutRows, io.standardOutputDescriptor != nil,
           Pager.overflows(text, rows: rows, columns: terminalWidth ?? 80), let pager = Pager(environment: environment),
           pager.run(text, environment: environment) {
            return
        }
        io.writeOut(text)
    }
}
