#if canImport(Glibc)
import Glibc
#endif

/// `chatctl help --man`: on a terminal, the page rendered and paged by man(1)
/// (`man -l -` reads it from standard input), as `man chatctl` shows it once
/// installed; into a pipe or a file, or where man is missing or fails, the roff
/// itself, as `make install` saves it.
enum ManualPageViewer {
    static func show(_ roff: String, io: any TerminalIO, environment: [String: String]) {
        guard io.stdoutIsTerminal, let man = executable(named: "man", searchPath: environment["PATH"]),
              render(roff, with: man) else {
            io.writeOut(roff)
            return
        }
    }

    /// The first executable `name` in the directories of `searchPath` (PATH), as a shell finds it.
    static func executable(named name: String, searchPath: String?) -> String? {
        for directory in (searchPath ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `man -l -` with the page on its standard input and chatctl's terminal
    /// as its output; true when man rendered it (exit status 0).
    static func render(_ roff: String, with man: String) -> Bool {
        guard let status = FedProgram.run(man, ["man", "-l", "-"], feeding: roff) else { return false }
        return status & 0x7F == 0 && (status >> 8) & 0xFF == 0
    }
}
