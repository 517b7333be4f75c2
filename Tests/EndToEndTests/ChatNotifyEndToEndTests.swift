import Foundation
import Testing
import TestSupport

/// The chat view tells of messages in other dialogs: the bell, the unread count
/// in the terminal's title, a desktop notification where the terminal makes one (OSC 777 for
/// WezTerm, through tmux's passthrough); `--no-notify` keeps quiet. The pane's raw output is
/// read with `pipe-pane`, and the title with `#{pane_title}`.
@Suite(.serialized) struct ChatNotifyEndToEndTests {
    typealias E = ChatEndToEndTests

    @Test func aMessageElsewhereRingsCountsInTheTitleAndNotifies() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "hi"]).status == 0)
        #expect(try carol.run(["send", "@" + alice.login, "first"]).status == 0)

        var environment = E.environment(alice)
        environment["WEZTERM_PANE"] = "0"  // tmux started in WezTerm: the variable survives into the pane
        let terminal = try TmuxSession(environment: environment)
        let rawDirectory = try TemporaryDirectory(prefix: "chatctl-raw")
        let raw = rawDirectory.file("pane.raw")
        try terminal.tmux(["pipe-pane", "-o", "-t", "0", "cat >> \(raw)"])
        try terminal.startChatctl("chat @\(bob.login)")
        #expect(try carol.run(["send", "@" + alice.login, "standup in 5"]).status == 0)
        try terminal.waitFor("✉ 2")
        try waitUntil("the notification in the pane's output", timeout: 10) {
            let bytes = (try? String(contentsOfFile: raw, encoding: .utf8)) ?? ""
            return bytes.contains("\u{07}") && bytes.contains("\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;\(carol.login);standup in 5\u{1B}\u{1B}\\")
        }
        let title = try terminal.tmux(["display-message", "-p", "-t", "0", "#{pane_title}"])
        #expect(title.contains("(2) \(bob.login) · chatctl"), "\(title)")
        try terminal.press("Escape")
        try terminal.waitForPrompt()

        // Again with --no-notify: the message is counted on the status line, and nothing rings.
        try terminal.tmux(["pipe-pane", "-t", "0"])
        try "".write(toFile: raw, atomically: true, encoding: .utf8)
        try terminal.tmux(["pipe-pane", "-o", "-t", "0", "cat >> \(raw)"])
        try terminal.startChatctl("chat --no-notify @\(bob.login)")
        #expect(try carol.run(["send", "@" + alice.login, "quietly"]).status == 0)
        try terminal.waitFor("✉ 3")
        let quiet = (try? String(contentsOfFile: raw, encoding: .utf8)) ?? ""
        #expect(!quiet.contains("\u{07}") && !quiet.contains("777;notify"), "no bell, no notification")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }

    /// `/help` opens the keys over the screen and Esc closes it without leaving; a failure to
    /// attach a directory is said once, whole, wrapped above the input, and the next key clears it.
    @Test func helpOverlayAndAWholeNotice() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "hi"]).status == 0)
        let terminal = try TmuxSession(width: 60, height: 20, environment: E.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        try terminal.type("/help")
        try terminal.press("Enter")
        try terminal.waitFor("Esc closes")
        try terminal.press("Escape")
        try terminal.waitForScreen("the help closed") { !$0.contains("Esc closes") && $0.contains("connected") }

        let directory = try TemporaryDirectory(prefix: "chatctl-attach-dir")
        try terminal.type("/attach \(directory.path)")
        try terminal.waitFor("> /attach \(directory.path)")
        try terminal.press("Enter")
        let screen = try terminal.waitFor("cannot attach")
        #expect(screen.components(separatedBy: "cannot attach").count == 2, "said once:\n\(screen)")
        #expect(screen.contains("one by one"), "the hint is there too, wrapped:\n\(screen)")
        try terminal.type("x")
        try terminal.waitForScreen("the notice cleared") { !$0.contains("cannot attach") }
        try terminal.press("C-u")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }

    /// A link in a message is underlined and written as an OSC 8 hyperlink (Debian's tmux
    /// drops hyperlinks from its screen, so the pane's raw output is read), the text as sent.
    @Test func aLinkIsUnderlinedAndAHyperlink() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "hi"]).status == 0)
        let terminal = try TmuxSession(environment: E.environment(alice, colors: true))
        let rawDirectory = try TemporaryDirectory(prefix: "chatctl-raw")
        let raw = rawDirectory.file("pane.raw")
        try terminal.tmux(["pipe-pane", "-o", "-t", "0", "cat >> \(raw)"])
        try terminal.startChatctl("chat @\(bob.login)")
        #expect(try bob.run(["send", "@" + alice.login, "the guide: https://example.com/guide?x=1."]).status == 0)
        let screen = try terminal.waitFor("the guide: https://example.com/guide?x=1.")
        #expect(screen.contains("the guide: https://example.com/guide?x=1."), "the text as sent")
        try terminal.waitForScreen("the link underlined", colors: true) { $0.contains("\u{1B}[4mhttps://example.com/guide?x=1") }
        try waitUntil("the hyperlink in the pane's output", timeout: 10) {
            let bytes = (try? String(contentsOfFile: raw, encoding: .utf8)) ?? ""
            return bytes.contains("\u{1B}]8;;https://example.com/guide?x=1\u{1B}\\https://example.com/guide?x=1\u{1B}]8;;\u{1B}\\")
        }
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }
}
