#if canImport(Glibc)
import Glibc
#endif
import Testing
import MessageCache
@testable import ChatctlCLI
@testable import Presentation

@Suite struct TimeArgumentTests {
    let now = 1_764_460_800 // 2025-11-30T00:00:00Z

    @Test(arguments: [
        ("1700000000", 1_700_000_000), ("2025-11-29", 1_764_374_400), ("2025-11-29T12:30:00Z", 1_764_419_400),
        ("2025-11-29T12:30", 1_764_419_400), ("90s", 1_764_460_710), ("2h", 1_764_453_600), ("7d", 1_763_856_000),
    ])
    func parses(text: String, expected: Int) {
        #expect(TimeArgument(argument: text)?.unixTime(now: now) == expected)
    }

    @Test(arguments: ["yesterday", "2025-13-01", "2025-11-29T25", "5y", "-3", "2025-11-29T12:30:00+01:00", "99999999999999999d"])
    func rejects(text: String) {
        #expect(TimeArgument(argument: text) == nil)
    }

    /// `listen --timeout`: a length of time, more than none.
    @Test(arguments: [("30s", 30), ("5m", 300), ("2h", 7200), ("7d", 604_800), ("45", 45)])
    func durations(text: String, seconds: Int) {
        #expect(Duration(argument: text) == .seconds(seconds))
    }

    @Test(arguments: ["0", "0s", "-5", "5x", "m", "", "99999999999999999d"])
    func notDurations(text: String) {
        #expect(Duration(argument: text) == nil)
    }
}

@Suite struct LineReaderTests {
    @Test func yieldsLinesAsTheyArriveAndTheUnterminatedLast() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        var reader = LineReader(fd: fds[0])
        write(fds[1], "one\r\ntwo\n", 9)
        #expect(reader.next() == "one")
        #expect(reader.next() == "two")
        write(fds[1], "\nlast", 5)
        close(fds[1])
        #expect(reader.next() == "")
        #expect(reader.next() == "last")
        #expect(reader.next() == nil)
        close(fds[0])
    }
}

@Suite struct TranscriptTests {
    func message(_ sender: Int, _ text: String, at time: Int = 1_764_460_800) -> CachedMessage {
        CachedMessage(id: "m\(time)\(sender)", dialogID: "d", senderID: sender, dateSent: time, text: text, rawJSON: "{}")
    }

    @Test func ownMessagesAreSetApartAndOthersNamed() {
        let t = Transcript(me: 1, names: [2: "Bob"], width: nil, color: false)
        let text = t.render([message(2, "hi"), message(1, "hello")])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("── "))
        #expect(lines[1].hasSuffix("  Bob: hi"))
        #expect(lines[2].hasSuffix(" » you: hello ✓"))
    }

    func mine(_ text: String, delivered: [Int] = [1], read: [Int] = [1]) -> CachedMessage {
        CachedMessage(id: "m", dialogID: "d", senderID: 1, dateSent: 1_764_460_800, text: text, rawJSON: "{}",
                      deliveredIDs: delivered, readIDs: read)
    }

    @Test func ownMessagesEndWithTheirState() {
        let plain = Transcript(me: 1, names: [:], width: nil, color: false)
        #expect(plain.line(mine("a")).hasSuffix(" » you: a ✓\n"))
        #expect(plain.line(mine("b", delivered: [1, 2])).hasSuffix(" » you: b ✓✓\n"))
        #expect(plain.line(mine("c", delivered: [1, 2], read: [1, 2])).hasSuffix(" » you: c ✓✓ read\n"))
        let coloured = Transcript(me: 1, names: [:], width: nil, color: true)
        #expect(coloured.line(mine("c", delivered: [1, 2], read: [1, 2])).hasSuffix(": c \u{1B}[34m✓✓\u{1B}[39m\n"),
                "read is the colour, not a word, on a colour terminal")
        // Others' messages carry no state, whatever their lists say.
        let theirs = CachedMessage(id: "t", dialogID: "d", senderID: 2, dateSent: 1_764_460_800, text: "hi", rawJSON: "{}",
                                   deliveredIDs: [2, 1], readIDs: [2, 1])
        #expect(plain.line(theirs).hasSuffix("hi\n"))
    }

    @Test func theStateStaysWithinTheWidth() {
        let t = Transcript(me: 1, names: [:], width: 30, color: false)
        let rows = t.line(mine("aaaa bbbb cccc dddd", delivered: [1, 2], read: [1, 2])).split(separator: "\n")
        #expect(rows.allSatisfy { $0.count <= 30 }, "\(rows)")
        #expect(rows.last?.hasSuffix("✓✓ read") == true)
    }

    @Test func escapeSequencesFromOthersPrintInert() {
        let t = Transcript(me: 1, names: [2: "Eve\u{1B}[2J"], width: nil, color: false)
        let text = t.render([message(2, "\u{1B}]0;owned\u{07}boom\u{1B}[31m red")])
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(text.contains("Eve: boom red"))
    }

    @Test func longLinesWrapUnderTheText() {
        let t = Transcript(me: 1, names: [2: "Bob"], width: 40, color: false)
        let line = t.line(message(2, String(repeating: "word ", count: 20)))
        let rows = line.split(separator: "\n")
        #expect(rows.count > 1)
        #expect(rows.allSatisfy { $0.count <= 40 })
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("            ") })
    }
}

/// The dialog table counts a cell by its bytes when it is printable ASCII, by
/// Characters otherwise; columns line up either way.
@Suite struct TableTests {
    @Test func columnsLineUpWithASCIIWideAndCombiningText() {
        let rows = [["NAME", "TYPE", "MESSAGE"], ["ops", "group", "hi"], ["café", "group", "x"], ["cafe\u{301}", "private", "y"],
                    [String(repeating: "n", count: 40), "group", "long"]]
        let pad = { (n: Int) in String(repeating: " ", count: n) }
        #expect(Table.render(rows, width: nil) == """
            NAME\(pad(30))TYPE     MESSAGE
            ops\(pad(31))group    hi
            café\(pad(30))group    x
            cafe\u{301}\(pad(30))private  y
            \(String(repeating: "n", count: 31))…  group    long

            """)
    }

    @Test func aTerminalCutsEachLineToItsWidthInCharacters() {
        let rows = [["NAME", "MESSAGE"], ["ops", "déjà vu, all over again"], ["x", "short"]]
        #expect(Table.render(rows, width: 16) == """
            NAME  MESSAGE
            ops   déjà vu, …
            x     short

            """)
    }

    @Test(arguments: ["plain", "tab\there", "crlf\r\n", "é", "e\u{301}", "👩‍👩‍👧", ""])
    func lengthIsTheCharacterCount(_ text: String) {
        #expect(Table.length(text) == text.count)
    }
}
