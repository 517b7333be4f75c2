import Foundation
import Testing
import TestSupport

/// `chatctl chat` in a real terminal (tmux), against the real sandbox, while other
/// users send, listen and type.
@Suite(.serialized) struct ChatEndToEndTests {
    /// The environment of a chat in tmux: the user's config and state, NO_COLOR unless asked for colours.
    static func environment(_ user: ChatUser, colors: Bool = false) -> [String: String] {
        var environment = ["CHATCTL_CONFIG": user.cli.configPath, "CHATCTL_STATE_DIR": user.cli.stateDir.path + "/state",
                           "PATH": productsDirectory.path + ":/usr/bin:/bin"]
        if colors { environment["NO_COLOR"] = "" }
        return environment
    }

    /// The rows of a screen.
    static func rows(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    @Test func aConversationInARealTerminal() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "did the deploy finish?"]).status == 0)

        let terminal = try TmuxSession(environment: Self.environment(alice, colors: true))
        try terminal.startChatctl("chat @\(bob.login)")
        // Incoming: on the left, the sender's name above, the time under it.
        var screen = try terminal.waitFor("did the deploy finish?")
        let rows = Self.rows(screen)
        let cell = try #require(rows.firstIndex { $0.contains("did the deploy finish?") })
        #expect(rows[cell].hasPrefix(" │ did the deploy finish? │"))
        #expect(rows[cell - 2].hasPrefix(" \(bob.login)"))
        #expect(rows[cell + 2].range(of: #"^ \d\d:\d\d"#, options: .regularExpression) != nil)

        // Bob types in a chat of his own: Alice sees it; then his message arrives.
        let bobTerminal = try TmuxSession(width: 60, height: 16, environment: Self.environment(bob))
        try bobTerminal.startChatctl("chat @\(alice.login)")
        try bobTerminal.type("checking the logs")
        try terminal.waitFor("\(bob.login) is typing…")
        try bobTerminal.press("Enter")
        screen = try terminal.waitFor("checking the logs")
        #expect(!screen.contains("is typing"), "a message ends the typing it announced")

        // Outgoing: on the right; ✓✓ once Bob's client has it, highlighted once he has seen it.
        try terminal.type("yes, all green")
        try terminal.press("Enter")
        screen = try terminal.waitForScreen("'yes, all green' delivered") { screen in
            Self.rows(screen).contains { $0.hasSuffix("✓✓ ") || $0.hasSuffix("✓✓") }
        }
        let sent = try #require(Self.rows(screen).first { $0.contains("yes, all green") })
        #expect(sent.hasSuffix("yes, all green │ ") || sent.hasSuffix("yes, all green │"))
        try bobTerminal.waitFor("yes, all green")
        // Shown on Bob's screen, so read: the check marks take the read colour (256-colour 45).
        try terminal.waitForScreen("the read highlight", colors: true) { $0.contains("\u{1B}[1m\u{1B}[38;5;45m✓✓") }

        // A paste of several lines is one message (bracketed paste), not one per line.
        try terminal.paste("first pasted line\nsecond pasted line")
        try terminal.press("Enter")
        let pasted = Self.rows(try bobTerminal.waitFor("second pasted line"))
        let first = try #require(pasted.firstIndex { $0.contains("first pasted line") })
        #expect(pasted[first + 1].contains("│ second pasted line"), "the two lines in one cell")

        // Esc ends it: the shell's prompt is back, the status 0.
        try terminal.press("Escape")
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=0")
        try bobTerminal.press("C-c")
        try bobTerminal.waitForPrompt()
        try bobTerminal.runAtPrompt("echo status=$?", expecting: "status=130")
    }

    /// What was typed and left is the dialog's draft, in the next run too: in the list, and in the input.
    @Test func aDraftLeftInADialogIsThereInTheNextRun() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "did the deploy finish?"]).status == 0)
        let terminal = try TmuxSession(environment: Self.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)", waitingFor: "did the deploy finish?")
        try terminal.type("what about the db migration")
        try terminal.waitFor("> what about the db migration")
        try terminal.press("Escape")
        try terminal.waitForPrompt()

        try terminal.startChatctl("chat", waitingFor: "draft: what about the db")
        try terminal.press("Enter")
        let screen = try terminal.waitFor("> what about the db migration")
        #expect(screen.contains("did the deploy finish?"))
        try terminal.press("C-u")
        try terminal.waitForScreen("the input emptied") { !$0.contains("> what about") }
        try terminal.press("Escape")
        let list = try terminal.waitFor(bob.login)
        #expect(!list.contains("draft:"), "emptied: the draft is gone")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }

    @Test func pagesBackThroughHistoryFromTheServerAndReflowsOnResize() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let lines = (1...250).map { "history line \($0)" }.joined(separator: "\n") + "\n"
        #expect(try alice.run(["send", "@" + bob.login, "--lines"], stdin: lines).status == 0)

        // Bob's cache has none of it: the newest page comes with the dialog, older ones as he scrolls.
        let terminal = try TmuxSession(width: 40, height: 12, environment: Self.environment(bob))
        try terminal.startChatctl("chat @\(alice.login)", waitingFor: "history line 250")
        var screen = ""
        for _ in 0..<60 {
            try terminal.press("Home")
            screen = try terminal.screen()
            if screen.contains("history line 1 ") { break }
            // Each Home reaches the top of what is loaded, which asks for the page before it.
            try terminal.waitForScreen("an older page", timeout: 20) { !$0.contains("loading older") && $0 != screen }
        }
        #expect(screen.contains("│ history line 1 "), "the first message, from the server: \(screen)")

        // Wider: the cells reflow; the status line fits.
        try terminal.resize(width: 70, height: 20)
        screen = try terminal.waitForScreen("the wider layout") { Self.rows($0).first?.contains("private") == true }
        #expect(Self.rows(screen).allSatisfy { $0.count <= 70 })
        try terminal.press("End")
        try terminal.waitFor("history line 250")
        try terminal.press("C-d")
        try terminal.waitForPrompt()
    }

    @Test func opensOfflineQueuesAndSendsWhenTheServerIsBack() throws {
        let chat = try RestartableChat()
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "before the outage"]).status == 0)
        chat.sandbox.stop()

        let terminal = try TmuxSession(environment: Self.environment(chat.alice))
        try terminal.startChatctl("chat @\(chat.bob.login)", waitingFor: "private")
        try terminal.waitFor("before the outage")
        try terminal.waitFor("offline")
        try terminal.type("written offline")
        try terminal.press("Enter")
        try terminal.waitForScreen("the message queued") { Self.rows($0).contains { $0.hasSuffix("queued") } }

        try chat.restartSandbox()
        try terminal.waitFor("connected", timeout: 20)
        try terminal.waitForScreen("the queued message sent") { screen in
            !screen.contains("queued") && Self.rows(screen).contains { $0.hasSuffix(" ✓") || $0.hasSuffix("✓✓") }
        }
        #expect(try chat.bob.history("@" + chat.alice.login).contains { $0["message"] as? String == "written offline" })

        // SIGTERM: the terminal is given back, and the shell sees the signal.
        let chatctl = try #require(try terminal.foregroundProcess())
        kill(chatctl, SIGTERM)
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=143")
    }

    @Test func sendsAFileAndSavesOneWithItsProgress() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let files = try TemporaryDirectory()
        let original = files.file("report.bin")
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: original))
        #expect(try alice.run(["send", "@" + bob.login, "the report follows"]).status == 0)

        let aliceTerminal = try TmuxSession(environment: Self.environment(alice))
        try aliceTerminal.startChatctl("chat @\(bob.login)")
        try aliceTerminal.type("/attach \(original)")
        try aliceTerminal.press("Enter")
        try aliceTerminal.waitForScreen("the file sent") { screen in
            screen.contains("[file] report.bin · 2.9 MB") && Self.rows(screen).contains { $0.hasSuffix(" ✓") || $0.hasSuffix("✓✓") }
        }

        let downloads = try TemporaryDirectory()
        let bobTerminal = try TmuxSession(environment: Self.environment(bob), workingDirectory: downloads.path)
        try bobTerminal.startChatctl("chat @\(alice.login)", waitingFor: "private")
        try bobTerminal.waitFor("[file] report.bin · 2.9 MB")
        try bobTerminal.press("Tab")
        try bobTerminal.type("d")
        try bobTerminal.waitFor("100 %")
        try bobTerminal.waitFor("saved as ./report.bin")
        #expect(FileManager.default.contentsEqual(atPath: downloads.file("report.bin"), andPath: original))
        try bobTerminal.press("Escape", "Escape")
        try bobTerminal.waitForPrompt()
    }

    /// A `width`×`height` BMP, red on the left half and blue on the right, written by
    /// hand (a 54-byte header, then bottom-up rows of BGR padded to four bytes) so the
    /// test does not lean on the encoder the client decodes with.
    static func splitBMP(width: Int, height: Int) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let rowBytes = (width * 3 + 3) & ~3
        var bytes = Array("BM".utf8) + le(54 + rowBytes * height, 4) + le(0, 4) + le(54, 4)
        bytes += le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(rowBytes * height, 4)
        bytes += le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4)
        for _ in 0..<height {
            var row: [UInt8] = []
            for x in 0..<width { row += x < width / 2 ? [0, 0, 255] : [255, 0, 0] }
            bytes += row + [UInt8](repeating: 0, count: rowBytes - row.count)
        }
        return bytes
    }

    @Test func anImageShowsAsAPreviewInItsCell() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let files = try TemporaryDirectory()
        let image = files.file("chart.bmp")
        try Data(Self.splitBMP(width: 320, height: 160)).write(to: URL(fileURLWithPath: image))
        #expect(try alice.run(["send", "@" + bob.login, "the chart follows"]).status == 0)

        let terminal = try TmuxSession(environment: Self.environment(alice, colors: true))
        try terminal.startChatctl("chat @\(bob.login) --images symbols")
        try terminal.type("/attach \(image)")
        try terminal.press("Enter")
        // 320×160 pixels in cells of 8×16: 20 columns by 5 rows, red (196) then blue (21).
        try terminal.waitForScreen("the preview in Alice's cell", colors: true) { Self.previewRows(below: "chart.bmp", in: $0) == 5 }
        try terminal.waitForScreen("the image sent") { screen in Self.rows(screen).contains { $0.hasSuffix(" ✓") || $0.hasSuffix("✓✓") } }

        // Bob's view fetches the image on its own to show it, with the same preview.
        let bobTerminal = try TmuxSession(environment: Self.environment(bob, colors: true))
        try bobTerminal.startChatctl("chat @\(alice.login) --images symbols")
        let screen = try bobTerminal.waitForScreen("the preview in Bob's cell", colors: true) { Self.previewRows(below: "chart.bmp", in: $0) == 5 }
        let label = try #require(Self.rows(try bobTerminal.screen()).first { $0.contains("chart.bmp") })
        #expect(label.hasPrefix(" │ [image] chart.bmp · 150 KB │"), "incoming, on the left: \(label)\n\(screen)")

        // `--images none`: the label, no picture.
        let plain = try TmuxSession(environment: Self.environment(bob))
        try plain.startChatctl("chat @\(alice.login) --images none")
        let text = try plain.waitFor("chart.bmp")
        #expect(Self.previewRows(below: "chart.bmp", in: try plain.screen(colors: true)) == 0, "\(text)")
    }

    /// How many rows under the row naming `name` show the red-and-blue picture: a
    /// red run (256-colour 196) left of a blue one (21), ten columns each.
    static func previewRows(below name: String, in screen: String) -> Int {
        let rows = rows(screen)
        guard let label = rows.firstIndex(where: { $0.contains(name) }) else { return 0 }
        let picture = "\u{1B}[48;5;196m" + String(repeating: " ", count: 10) + "\u{1B}[48;5;21m" + String(repeating: " ", count: 10)
        return rows[(label + 1)...].prefix(8).filter { $0.contains(picture) }.count
    }

    @Test func aDumbTerminalIsToldToUseHistoryAndListen() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox)
        let terminal = try TmuxSession(environment: Self.environment(alice))
        try terminal.type("TERM=dumb chatctl chat; echo status=$?")
        try terminal.press("Enter")
        let screen = try terminal.waitFor("status=2")
        #expect(screen.contains("chatctl: chat needs a terminal"))
        #expect(screen.contains("'chatctl history DIALOG'") && screen.contains("'chatctl listen'"))
    }
}
