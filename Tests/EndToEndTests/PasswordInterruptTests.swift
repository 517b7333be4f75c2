import Foundation
import Testing
import TestSupport

/// ^C at the password prompt, on a real pseudo-terminal: chatctl puts echo
/// back before it goes, and ends as an interrupted program does (SIGINT).
@Suite struct PasswordInterruptTests {
    @Test func controlCAtThePromptRestoresEchoAndEndsBySIGINT() throws {
        // On a terminal the config is read before any question: a real one, and an account that exists.
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let terminal = try PseudoTerminal(productPath("chatctl"), ["login", "--login", alice.login, "--no-chat"],
                                          environment: ["CHATCTL_CONFIG": sandbox.configPath, "HOME": "/nonexistent",
                                                        "CHATCTL_STATE_DIR": alice.cli.stateDir.path + "/state"])
        try terminal.output.wait(for: "the password prompt", timeout: 10) { $0.contains("Password for \(alice.login): ") }
        #expect(try !terminal.echoes(), "echo is off while the password is typed")

        try terminal.type("\u{3}")
        let status = try #require(terminal.waitForExit(timeout: 10), "chatctl did not end within 10 s of ^C")
        #expect(status & 0x7F == SIGINT, "ended by SIGINT, status \(status)")
        #expect(try terminal.echoes(), "echo is back on")
    }
}
