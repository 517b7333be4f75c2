import Foundation
import Testing
import TestSupport

/// ^C at the password prompt, on a real pseudo-terminal: chatctl puts echo
/// back before it goes, and ends as an interrupted program does (SIGINT).
@Suite struct PasswordInterruptTests {
    @Test func controlCAtThePromptRestoresEchoAndEndsBySIGINT() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let slavePath = String(cString: ttyname(slave))
        close(slave)

        // A new session whose first terminal opened is the pty: it becomes /dev/tty.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // As a shell starts a program: its own session, no signal blocked or ignored
        // (the test runner's threads may block some). glibc's values, not exported to Swift.
        let setSID: Int16 = 0x80, setSignalMask: Int16 = 0x08, setSignalDefaults: Int16 = 0x04
        posix_spawnattr_setflags(&attributes, setSID | setSignalMask | setSignalDefaults)
        var noSignals = sigset_t(), interrupt = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &interrupt)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let words = [productPath("chatctl"), "login", "--login", "alice", "--no-chat"]
        let argv = words.map { strdup($0) } + [nil]
        let envp = [String](["CHATCTL_CONFIG=/nonexistent/config.json", "HOME=/nonexistent", "PATH=/usr/bin:/bin"]).map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, words[0], &actions, &attributes, argv, envp) == 0)

        let prompt = try readUntil("Password for alice: ", from: master, seconds: 10)
        #expect(prompt.contains("Password for alice: "))
        var settings = termios()
        try #require(tcgetattr(master, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) == 0, "echo is off while the password is typed")

        var controlC: UInt8 = 3
        #expect(write(master, &controlC, 1) == 1)
        let status = try waitForExit(pid, seconds: 10)
        #expect(status & 0x7F == SIGINT, "ended by SIGINT, status \(status)")
        try #require(tcgetattr(master, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0, "echo is back on")
    }

    /// Reads from the pty until `marker` appears; fails the test after `seconds`.
    func readUntil(_ marker: String, from fd: Int32, seconds: Double) throws -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(seconds)
        while !text.contains(marker) {
            let remaining = Int32(deadline.timeIntervalSinceNow * 1000)
            try #require(remaining > 0, "no '\(marker)' within \(seconds) s; got: \(text)")
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, remaining) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &buffer, buffer.count)
            try #require(n > 0, "the terminal closed; got: \(text)")
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return text
    }

    /// The raw wait status; kills the child and fails after `seconds`.
    func waitForExit(_ pid: pid_t, seconds: Double) throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                Issue.record("chatctl did not end within \(seconds) s of ^C")
                return status
            }
            var poller = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&poller, 0, 10)  // a 10 ms step of a bounded wait for the exit
        }
        return status
    }
}
