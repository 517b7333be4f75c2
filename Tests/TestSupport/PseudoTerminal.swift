import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program on a pseudo-terminal the test drives, as a shell starts one: its own session
/// with the pty as /dev/tty, so it can prompt, turn echo off and be sent ^C.
package final class PseudoTerminal: @unchecked Sendable {
    /// Everything the program wrote to the terminal (with the terminal's CR LF line ends).
    package let output: OutputLog
    package let pid: pid_t
    private let master: Int32
    private let exitStatus = ResultBox<Int32>()

    /// Starts `path` with `childEnvironment(environment)`, no signal blocked or ignored.
    package init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        ignoreSIGPIPE
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw TestSupportError("openpty: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(cString: ttyname(slave))
        close(slave)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session, and a clean signal state.
        cleanSignalState(&attributes, alsoFlags: spawnSetSID)
        // The first terminal a session leader opens becomes its controlling terminal.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = childEnvironment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(master)
            throw TestSupportError("posix_spawn \(path): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.master = master
        output = OutputLog(reading: fcntl(master, F_DUPFD_CLOEXEC, 0), name: "the terminal")
        let exitStatus = self.exitStatus, child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            var reaped = waitpid(child, &status, 0)
            while reaped < 0 && errno == EINTR { reaped = waitpid(child, &status, 0) }
            exitStatus.append(reaped == child ? status : -1)
        }
    }

    /// Types `text`: "\n" ends a line, "\u{3}" is ^C.
    package func type(_ text: String) throws {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw TestSupportError("typing on the terminal: \(String(cString: strerror(errno)))") }
    }

    /// Whether the terminal echoes what is typed (a program turns it off to read a password).
    /// Terminal settings asked of the master are the program's side's.
    package func echoes() throws -> Bool {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { throw TestSupportError("tcgetattr: \(String(cString: strerror(errno)))") }
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// The raw wait status once the program has exited and what it wrote has been read
    /// (`output`), or nil if it still runs after `timeout` seconds.
    package func waitForExit(timeout: Double) -> Int32? {
        guard let status = exitStatus.wait(timeout: timeout).first else { return nil }
        // Reaped is not read: its last bytes may still wait in the terminal (the reader
        // sees EIO once they are out, unless a child of its own still holds the terminal).
        _ = output.waitForEnd(timeout: 5)
        return status
    }

    deinit {
        if exitStatus.all.isEmpty {
            kill(pid, SIGKILL)
            exitStatus.wait(timeout: 10)
        }
        close(master)
    }
}

/// glibc's POSIX_SPAWN_SETSID, which Swift does not import.
let spawnSetSID: Int16 = 0x80

/// A child with no signal blocked and the usual ones at their defaults: the test
/// runner's threads block some, and a child (and whatever it starts) would inherit that.
func cleanSignalState(_ attributes: inout posix_spawnattr_t, alsoFlags: Int16 = 0) {
    let setSignalMask: Int16 = 0x08, setSignalDefaults: Int16 = 0x04  // glibc's values, not imported
    posix_spawnattr_setflags(&attributes, alsoFlags | setSignalMask | setSignalDefaults)
    var noSignals = sigset_t(), defaults = sigset_t()
    sigemptyset(&noSignals)
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
}
