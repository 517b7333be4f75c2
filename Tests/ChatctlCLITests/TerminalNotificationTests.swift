import Testing
@testable import ChatctlCLI

/// The bytes a notification writes: the bell always, a desktop notification only for a
/// terminal known to make one, nothing of another user's text that could act on the terminal.
@Suite struct TerminalNotificationTests {
    @Test(arguments: [
        (["TERM_PROGRAM": "WezTerm"], TerminalNotification.Desktop.osc777),
        (["TERM": "foot"], .osc777),
        (["TERM": "xterm-kitty"], .osc9),
        (["TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"], .osc9),
        (["TERM": "xterm-256color"], .none),
        (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux"], .none),
        (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "WEZTERM_PANE": "3"], .osc777),
        (["TERM": "screen", "LC_TERMINAL": "iTerm2"], .osc9),
    ])
    func aTerminalIsKnownByItsEnvironment(environment: [String: String], expected: TerminalNotification.Desktop) {
        #expect(TerminalNotification.desktop(environment: environment) == expected)
    }

    @Test func anUnknownTerminalOnlyRings() {
        #expect(TerminalNotification.sequence(title: "bob", body: "hi", desktop: .none, insideTmux: false) == "\u{07}")
    }

    @Test func osc777CarriesTitleAndBodyAndNothingThatActsOnTheTerminal() {
        let bytes = TerminalNotification.sequence(title: "a;b\u{1B}]2;pwned\u{07}", body: "line one\nline\u{9B}two", desktop: .osc777,
                                                  insideTmux: false)
        // Whole sequences go (an OSC with its text, a C1 CSI with its final byte), as TerminalText removes them.
        #expect(bytes == "\u{07}\u{1B}]777;notify;a,b;line one linewo\u{1B}\\")
    }

    @Test func insideTmuxTheSequenceGoesThroughPassthrough() {
        let bytes = TerminalNotification.sequence(title: "bob", body: "hi", desktop: .osc9, insideTmux: true)
        #expect(bytes == "\u{07}\u{1B}Ptmux;\u{1B}\u{1B}]9;bob: hi\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func theTitleIsOneInertLine() {
        #expect(TerminalNotification.titleSequence("(2) ops\u{07}\u{1B}x · chatctl") == "\u{1B}]2;(2) ops · chatctl\u{1B}\\")
    }
}
