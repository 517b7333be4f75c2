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
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        // chatctl ignores SIGPIPE, and SIGINT below; an ignored signal stays ignored across
        // exec, so the pager gets their defaults back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(fds[0])
        guard spawned == 0 else { close(fds[1]); return false }

        // ^C belongs to the pager now (less stays on it); chatctl must not end beneath it.
        let interrupt = signal(SIGINT, SIG_IGN), quit = signal(SIGQUIT, SIG_IGN)
        defer { signal(SIGINT, interrupt); signal(SIGQUIT, quit) }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fds[1], $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; break }
            offset += n
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // 126 and 127: the shell could not find or run the program (and said so on stderr).
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        return !(exited && (code == 126 || code == 127))
    }

    /// Whether an executable `name` is in one of `path`'s directories.
    static func findsProgram(_ name: String, path: String) -> Bool {
        path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}
