import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for a full-screen program: a detached tmux session of fixed size
/// on a server of its own (`tmux -L <unique socket>`), running an interactive shell
/// with a known prompt. The test types with `send-keys`, pastes with
/// `paste-buffer -p` (bracketed), and reads the screen with `capture-pane -p`
/// (`-e` for colours), polling until what it waits for appears, with a deadline.
/// The server is always killed when the value is released.
package final class TmuxSession: @unchecked Sendable {
    package let socket: String
    /// The shell's prompt, which shows again when the program ends (a captured
    /// screen drops the blank after it).
    package static let prompt = "TESTSHELL$"
    private let directory: TemporaryDirectory
    private var killed = false

    /// Starts `bash` (no profile; the prompt above) in a `width` × `height` window, in
    /// `workingDirectory`, with `environment` on top of the test's (CHATCTL_* and XDG_*
    /// removed, NO_COLOR=1 unless overridden), TERM=tmux-256color.
    package init(width: Int = 80, height: Int = 24, environment: [String: String] = [:], workingDirectory: String? = nil) throws {
        directory = try TemporaryDirectory(prefix: "chatctl-tmux")
        socket = "chatctl-test-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        let config = directory.file("tmux.conf")
        // escape-time 0: Esc reaches the program at once (tmux would wait for more of a sequence).
        try """
            set -g default-terminal tmux-256color
            set -g escape-time 0
            set -g status off
            set -g history-limit 0
            """.write(toFile: config, atomically: true, encoding: .utf8)
        // The prompt from a startup file of its own: bash does not take PS1 from tmux's environment.
        let rcfile = directory.file("bashrc")
        try "PS1='\(Self.prompt) '\nunset PROMPT_COMMAND\n".write(toFile: rcfile, atomically: true, encoding: .utf8)
        var shellEnvironment = ["HISTFILE": "/dev/null", "LANG": "C.UTF-8"]
        shellEnvironment.merge(environment) { $1 }
        var arguments = ["-L", socket, "-f", config, "new-session", "-d", "-x", String(width), "-y", String(height)]
        arguments += ["-c", workingDirectory ?? directory.path]
        for (name, value) in shellEnvironment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(name)=\(value)"] }
        arguments += ["bash --noprofile --rcfile \(rcfile)"]
        try tmux(arguments, environment: shellEnvironment)
        _ = try waitForScreen("the shell's prompt", timeout: 10) { $0.contains(Self.prompt) }
    }

    /// Runs tmux against this session's server; throws when it fails. Spawned and
    /// reaped here (not through Foundation's Process, which lost the exit of a tmux
    /// client that had just started its server), its output through files.
    @discardableResult
    package func tmux(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let full = arguments.first == "-L" ? arguments : ["-L", socket] + arguments
        let out = directory.file("tmux.out"), err = directory.file("tmux.err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The server tmux starts inherits the signal state (kill-server is a SIGTERM it sends itself).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        cleanSignalState(&attributes)
        let argv = (["/usr/bin/tmux"] + full).map { strdup($0) } + [nil]
        let envp = childEnvironment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw TestSupportError("posix_spawn tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw TestSupportError("waitpid tmux: \(String(cString: strerror(errno)))") }
            if Date() > deadline {
                Glibc.kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw TestSupportError("tmux \(arguments.prefix(3).joined(separator: " ")) did not finish in 10 s")
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            throw TestSupportError("tmux \(arguments.prefix(3).joined(separator: " ")) failed (status \(status)): \(errors)")
        }
        return output
    }

    /// Types `text` as it is (no key names).
    package func type(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }

    /// Presses keys by tmux's names: `Enter`, `Escape`, `PPage`, `C-c`, `Tab`…
    package func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "0"] + keys) }

    /// Pastes `text` as a terminal does, bracketed when the program asked for it.
    package func paste(_ text: String) throws {
        try tmux(["set-buffer", "--", text])
        try tmux(["paste-buffer", "-p", "-d", "-t", "0"])
    }

    /// The screen as text, one line per row (`colors`: with SGR escapes).
    package func screen(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"] + (colors ? ["-e"] : []))
    }

    /// Polls the screen until `condition` holds; returns that screen. Throws after
    /// `timeout` seconds, with the last screen in the message.
    @discardableResult
    package func waitForScreen(_ what: String, timeout: Double = 10, colors: Bool = false,
                              _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = try screen(colors: colors)
            if condition(last) { return last }
            guard Date() < deadline else {
                throw TestSupportError("timed out after \(timeout) s waiting for \(what); the screen:\n\(last)")
            }
            usleep(20_000)
        }
    }

    /// Waits for a line of the screen that contains `text`.
    @discardableResult
    package func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        try waitForScreen("'\(text)' on the screen", timeout: timeout) { $0.contains(text) }
    }

    package func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", String(width), "-y", String(height)])
    }

    /// The process id of the program the shell is running in the foreground, if any.
    package func foregroundProcess() throws -> pid_t? {
        let shell = try tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try runProcess("/usr/bin/pgrep", ["-P", shell], timeout: 10)
        return children.stdout.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// Starts `chatctl ARGUMENTS` at the prompt and waits for its status line's connection state.
    package func startChatctl(_ arguments: String, waitingFor ready: String = "connected") throws {
        try type("chatctl " + arguments)
        try press("Enter")
        try waitFor(ready)
    }

    /// Waits until the shell's prompt is back on a line of its own.
    package func waitForPrompt() throws {
        try waitForScreen("the shell's prompt") { $0.components(separatedBy: "\n").contains { $0.hasPrefix(Self.prompt) } }
    }

    /// Runs `command` at the prompt and waits for `expected` in what it printed.
    package func runAtPrompt(_ command: String, expecting expected: String) throws {
        try type(command)
        try press("Enter")
        try waitFor(expected)
    }

    package func kill() {
        guard !killed else { return }
        killed = true
        _ = try? tmux(["kill-server"])
        // tmux leaves its socket behind when killed (its default place: TMUX_TMPDIR is not set for tests).
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    deinit { kill() }
}
