import Foundation
import Testing
import TestSupport

/// ^C at the password prompt, on a real pseudo-terminal: chatctl puts echo
/// back before it goes, and ends as an interrupted program does (SIGINT).
@Suite struct PasswordInterruptTests {
    @Test func controlCAtThePromptRestoresEchoAndEndsBySIGINT() throws {
        let terminal = try PseudoTerminal(productPath("chatctl"), ["login", "--login", "alice", "--no-chat"],
                                          environment: ["CHATCTL_CONFIG": "/nonexistent/config.json", "HOME": "/nonexistent"])
        try terminal.output.wait(for: "the password prompt", timeout: 10) { $0.contains("Password for alice: ") }
        #expect(try !terminal.echoes(), "echo is off while the password is typed")

        try terminal.type("\u{3}")
        let status = try #require(terminal.waitForExit(timeout: 10), "chatctl did not end within 10 s of ^C")
        #expect(status & 0x7F == SIGINT, "ended by SIGINT, status \(status)")
        #expect(try terminal.echoes(), "echo is back on")
    }
}
