#if canImport(Glibc)
import Glibc
#endif
import Threads

/// A program run with text on its standard input and chatctl's terminal as its output,
/// waited for: the pager (`Pager`) and man(1) for `help --man` (`ManualPageViewer`).
enum FedProgram {
    /// Runs `path` with `arguments` (argv[0] first) and `environment` (nil: chatctl's),
    /// writes `text` into its standard input, and returns its wait status; nil when it
    /// could not be started. While it runs ^C and ^\ are its alone (less stays on them),
    /// and it starts with SIGPIPE, SIGINT and SIGQUIT at their defaults (an ignored signal
    /// stays ignored across exec). A reader that quits early (q) is no error: the rest is
    /// dropped (chatctl ignores SIGPIPE, so the write just fails with EPIPE).
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, feeding text: String) -> Int32? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(fds[0])
        guard spawned == 0 else { close(fds[1]); return nil }

        let saved = ProcessSignals.set(.ignored, for: [SIGINT, SIGQUIT])
        defer { saved.restore() }
        StandardIO.writeAll(fds[1], text)
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}
