import Foundation
import Testing
import TestSupport

/// `chatctl chat`'s keys in tmux with `TERM=xterm-256color` inside (as after ssh into
/// tmux): tmux sends its own spellings (End is `ESC [ 4 ~`, xterm's terminfo says
/// `ESC O F`), and every one of them must be a key or nothing, never an Esc that
/// leaves the view.
@Suite(.serialized) struct ChatKeysEndToEndTests {
    /// The input line, as the screen's row that starts with the prompt.
    static func inputLine(_ screen: String) -> String? {
        ChatEndToEndTests.rows(screen).first { $0.hasPrefix("> ") }.map { line in
            String(line.dropFirst(2).reversed().drop { $0 == " " }.reversed())
        }
    }

    @Test func keysTerminfoDoesNotKnowAreDecodedAndOnlyALoneEscLeaves() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        // Enough to scroll; the newest last in one run, so it is the newest shown.
        let lines = (1...30).map { "older line \($0)" } + ["are you there?"]
        #expect(try bob.run(["send", "@" + alice.login, "--lines"], stdin: lines.joined(separator: "\n") + "\n").status == 0)

        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.type("TERM=xterm-256color chatctl chat @\(bob.login)")
        try terminal.press("Enter")
        try terminal.waitFor("are you there?")
        func expectInput(_ text: String) throws {
            try terminal.waitForScreen("the input line '\(text)'") { Self.inputLine($0) == text }
        }

        // tmux's Home and End (ESC [ 1 ~, ESC [ 4 ~) move in the input line.
        try terminal.type("middle")
        try terminal.press("Home")
        try terminal.type("[")
        try terminal.press("End")
        try terminal.type("]")
        try expectInput("[middle]")

        // Other terminals' spellings, raw: rxvt's ESC [ 7 ~ and ESC [ 8 ~, SS3 Home, CSI End.
        try terminal.send(bytes: "\u{1B}[7~")
        try terminal.type("<")
        try terminal.send(bytes: "\u{1B}[8~")
        try terminal.type(">")
        try terminal.send(bytes: "\u{1B}OH")
        try terminal.type("(")
        try terminal.send(bytes: "\u{1B}[F")
        try terminal.type(")")
        try expectInput("(<[middle]>)")

        // Keys with nothing to do, and sequences that are no key at all: nothing typed, nothing left.
        try terminal.press("F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "IC")
        try terminal.send(bytes: "\u{1B}[?1;2c")                 // a device attributes reply
        try terminal.send(bytes: "\u{1B}]11;rgb:0000/0000/0000\u{07}") // an OSC colour reply
        try terminal.send(bytes: "\u{1B}P1$r0m\u{1B}\\")           // a DCS reply
        try terminal.send(bytes: "\u{1B}[I\u{1B}[27;5;13~\u{1B}[[A\u{1B}OE")
        try terminal.type(" ok")
        try expectInput("(<[middle]>) ok")

        // ^← and Alt-← (ESC [ 1 ; 5 D, ESC [ 1 ; 3 D): a word left each; Delete deletes.
        try terminal.press("C-Left", "M-Left")
        try terminal.type("go ")
        try terminal.press("DC")
        try expectInput("go <[middle]>) ok")
        #expect(try terminal.screen().contains("are you there?"), "still in the conversation")

        // The view asked for mouse reports itself, in SGR form: the wheel scrolls, SGR or legacy.
        #expect(try terminal.mouseModes() == "1 1")
        try terminal.send(bytes: String(repeating: "\u{1B}[<64;10;5M", count: 5))
        try terminal.waitForScreen("the wheel scrolled up") { !$0.contains("are you there?") }
        try terminal.send(bytes: String(repeating: "\u{1B}[Ma*&", count: 5))
        try terminal.waitFor("are you there?")

        // A lone Esc leaves, and the terminal is given back without mouse reports.
        try terminal.press("Escape")
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=0")
        #expect(try terminal.mouseModes() == "0 0")
    }
}

extension TmuxSession {
    /// Whether the program in the pane asked for mouse reports, and in SGR form: "1 1" or "0 0".
    func mouseModes() throws -> String {
        try tmux(["display-message", "-p", "-t", "0", "#{mouse_standard_flag} #{mouse_sgr_flag}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends `text`'s bytes as they are (`send-keys -H`), escape sequences included.
    func send(bytes text: String) throws {
        try tmux(["send-keys", "-t", "0", "-H"] + text.utf8.map { String($0, radix: 16) })
    }
}
