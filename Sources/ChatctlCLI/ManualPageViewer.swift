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
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("man"), strdup("-l"), strdup("-"), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, man, &actions, nil, argv, environ)
        close(fds[0])
        guard spawned == 0 else { close(fds[1]); return false }
        // A reader that quits early (q in the pager) closes the pipe: EPIPE ends the
        // write (chatctl ignores SIGPIPE, main.swift).
        StandardIO.writeAll(fds[1], roff)
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 && (status >> 8) & 0xFF == 0
    }
}
