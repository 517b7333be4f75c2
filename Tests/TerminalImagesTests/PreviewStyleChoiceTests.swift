import TerminalImages
import Testing

/// `--images auto` picks from what the terminal says, and only that; symbols take
/// the colours and characters it has.
@Suite struct PreviewStyleChoiceTests {
    static let cell = CellSize(width: 9, height: 18)
    static let sixels = DeviceAttributes(primaryReply: "\u{1B}[?62;4;6;22c")
    static let utf8 = ["LANG": "en_US.UTF-8"]

    struct Row: Sendable, CustomStringConvertible {
        let environment: [String: String]
        var deviceAttributes: DeviceAttributes? = nil
        var cellSize: CellSize? = nil
        let style: PreviewStyle
        let why: String
        var description: String { why }
    }

    static let autoTable: [Row] = [
        Row(environment: [:], style: .none, why: "no TERM: not a terminal"),
        Row(environment: ["TERM": "dumb"], style: .none, why: "a dumb terminal"),
        Row(environment: utf8.merging(["TERM": "xterm-256color"]) { $1 }, style: .symbols(.palette256, .unicode), why: "xterm: symbols in 256 colours"),
        Row(environment: utf8.merging(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) { $1 }, style: .symbols(.trueColor, .unicode), why: "COLORTERM=truecolor"),
        Row(environment: ["TERM": "xterm", "COLORTERM": "24bit", "LC_ALL": "C"], style: .symbols(.trueColor, .ascii), why: "COLORTERM=24bit, LC_ALL=C: ASCII"),
        Row(environment: ["TERM": "linux", "LANG": "C.UTF-8"], style: .symbols(.palette16, .unicode), why: "the Linux console: 16 colours"),
        Row(environment: ["TERM": "xterm-256color"], style: .symbols(.palette256, .ascii), why: "no locale: ASCII"),
        Row(environment: ["TERM": "xterm-kitty", "LANG": "en_GB.utf8"], style: .kitty, why: "kitty by TERM"),
        Row(environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], style: .kitty, why: "kitty by KITTY_WINDOW_ID"),
        Row(environment: ["TERM": "xterm-ghostty"], style: .kitty, why: "Ghostty speaks kitty graphics"),
        Row(environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "ghostty"], style: .kitty, why: "Ghostty by TERM_PROGRAM"),
        Row(environment: ["TERM": "xterm-256color"], deviceAttributes: sixels, cellSize: cell, style: .sixel, why: "DA1 says sixel, cell size known"),
        Row(environment: utf8.merging(["TERM": "xterm-256color"]) { $1 }, deviceAttributes: sixels, style: .symbols(.palette256, .unicode), why: "DA1 says sixel, cell size unknown"),
        Row(environment: utf8.merging(["TERM": "foot"]) { $1 }, deviceAttributes: DeviceAttributes(primaryReply: "\u{1B}[?62;22c"), cellSize: cell, style: .symbols(.palette16, .unicode), why: "DA1 without 4: no sixel"),
        Row(environment: utf8.merging(["TERM": "xterm-256color"]) { $1 }, cellSize: cell, style: .symbols(.palette256, .unicode), why: "no DA1 answer: no sixel, whatever TERM"),
        Row(environment: utf8.merging(["TERM": "xterm-kitty"]) { $1 }, deviceAttributes: sixels, cellSize: cell, style: .kitty, why: "kitty before sixel"),
        Row(environment: utf8.merging(["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"]) { $1 }, deviceAttributes: sixels, cellSize: cell, style: .symbols(.palette256, .unicode), why: "tmux inside kitty: symbols"),
        Row(environment: utf8.merging(["TERM": "screen-256color"]) { $1 }, deviceAttributes: sixels, cellSize: cell, style: .symbols(.palette256, .unicode), why: "screen: symbols"),
        Row(environment: utf8.merging(["TERM": "xterm-kitty", "NO_COLOR": "1"]) { $1 }, style: .symbols(.none, .unicode), why: "NO_COLOR: symbols without colours, even in kitty"),
        Row(environment: utf8.merging(["TERM": "xterm-256color", "NO_COLOR": ""]) { $1 }, style: .symbols(.palette256, .unicode), why: "an empty NO_COLOR does not count"),
    ]

    @Test(arguments: autoTable)
    func autoFollowsTheTerminal(_ row: Row) {
        let terminal = TerminalTraits(environment: row.environment, deviceAttributes: row.deviceAttributes, cellSize: row.cellSize)
        #expect(PreviewStyle.automatic(for: terminal) == row.style)
    }

    @Test func symbolsFollowTheTerminalWhereverTheyAreAskedFor() {
        let tmux = TerminalTraits(environment: ["TERM": "tmux-256color", "TMUX": "x", "LANG": "C.UTF-8"])
        #expect(PreviewStyle.symbols(for: tmux) == .symbols(.palette256, .unicode))
        let noColor = TerminalTraits(environment: ["TERM": "xterm-kitty", "NO_COLOR": "yes"])
        #expect(PreviewStyle.symbols(for: noColor) == .symbols(.none, .ascii))
        #expect(PreviewStyle.symbols(for: TerminalTraits(environment: [:])) == .symbols(.palette16, .ascii))
        let direct = TerminalTraits(environment: ["TERM": "xterm-direct", "LC_CTYPE": "UTF-8"])
        #expect(PreviewStyle.symbols(for: direct) == .symbols(.trueColor, .unicode))
    }

    @Test(arguments: [
        ("\u{1B}[?62;4;6;22c", [62, 4, 6, 22], true),
        ("\u{1B}[?1;2c", [1, 2], false),
        ("\u{9B}?64;4c", [64, 4], true),
        ("?4c", [4], true),
    ])
    func deviceAttributesAnswersAreRead(_ reply: String, _ attributes: [Int], _ sixel: Bool) throws {
        let parsed = try #require(DeviceAttributes(primaryReply: reply))
        #expect(parsed.attributes == attributes)
        #expect(parsed.drawsSixels == sixel)
    }

    @Test(arguments: ["", "\u{1B}[?c", "\u{1B}[?62;x;4c", "\u{1B}[>1;10;0c", "\u{1B}[?62;4", "hello"])
    func otherAnswersAreNotDeviceAttributes(_ reply: String) {
        #expect(DeviceAttributes(primaryReply: reply) == nil)
    }
}
