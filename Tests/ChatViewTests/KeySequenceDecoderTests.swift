import Testing
import ChatView

@Suite struct KeySequenceDecoderTests {
    typealias Output = KeySequenceDecoder.Output

    /// Every spelling the decoder knows, with the key it is.
    static let spellings: [(String, Key)] = [
        // Arrows: CSI (normal mode), SS3 (application mode).
        ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        // xterm's modifiers: Shift 2, Alt 3, Ctrl 5, Ctrl-Shift 6, Meta 9; Ctrl/Alt/Meta with ←/→ move a word.
        ("\u{1B}[1;5D", .wordLeft), ("\u{1B}[1;5C", .wordRight), ("\u{1B}[1;3D", .wordLeft), ("\u{1B}[1;3C", .wordRight),
        ("\u{1B}[1;6D", .wordLeft), ("\u{1B}[1;9C", .wordRight), ("\u{1B}[1;2D", .left), ("\u{1B}[1;2C", .right),
        ("\u{1B}[1;2A", .up), ("\u{1B}[1;5B", .down), ("\u{1B}[1;3A", .up),
        // xterm's older forms (modifyCursorKeys 0, konsole): the modifier alone.
        ("\u{1B}[5D", .wordLeft), ("\u{1B}O5C", .wordRight), ("\u{1B}O1;5D", .wordLeft), ("\u{1B}O2A", .up),
        // rxvt: Shift arrows in CSI, Ctrl arrows in SS3, Alt as a leading ESC.
        ("\u{1B}[a", .up), ("\u{1B}[b", .down), ("\u{1B}[c", .right), ("\u{1B}[d", .left),
        ("\u{1B}Oa", .up), ("\u{1B}Ob", .down), ("\u{1B}Oc", .wordRight), ("\u{1B}Od", .wordLeft),
        ("\u{1B}\u{1B}[D", .wordLeft), ("\u{1B}\u{1B}[C", .wordRight), ("\u{1B}\u{1B}OA", .up),
        // Home and End: xterm, vt220 and tmux, rxvt, with modifiers.
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        ("\u{1B}[1;5H", .home), ("\u{1B}[1;2F", .end), ("\u{1B}[7^", .home), ("\u{1B}[8$", .end), ("\u{1B}[7@", .home),
        // Insert, Delete, PgUp, PgDn (vt220), with modifiers (xterm, rxvt).
        ("\u{1B}[2~", .insert), ("\u{1B}[3~", .delete), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[3;5~", .delete), ("\u{1B}[5;3~", .pageUp), ("\u{1B}[2$", .insert), ("\u{1B}[3^", .delete), ("\u{1B}[6$", .pageDown),
        // F1–F4: SS3 (xterm), CSI with modifiers (xterm), vt220's numbers, the Linux console.
        ("\u{1B}OP", .function(1)), ("\u{1B}OQ", .function(2)), ("\u{1B}OR", .function(3)), ("\u{1B}OS", .function(4)),
        ("\u{1B}[1;2P", .function(1)), ("\u{1B}[1;5Q", .function(2)), ("\u{1B}[1;3R", .function(3)), ("\u{1B}[1;6S", .function(4)),
        ("\u{1B}O2P", .function(1)),
        ("\u{1B}[11~", .function(1)), ("\u{1B}[12~", .function(2)), ("\u{1B}[13~", .function(3)), ("\u{1B}[14~", .function(4)),
        ("\u{1B}[[A", .function(1)), ("\u{1B}[[B", .function(2)), ("\u{1B}[[C", .function(3)), ("\u{1B}[[D", .function(4)),
        ("\u{1B}[[E", .function(5)),
        // F5–F12, plain, with xterm's modifier, with rxvt's.
        ("\u{1B}[15~", .function(5)), ("\u{1B}[17~", .function(6)), ("\u{1B}[18~", .function(7)), ("\u{1B}[19~", .function(8)),
        ("\u{1B}[20~", .function(9)), ("\u{1B}[21~", .function(10)), ("\u{1B}[23~", .function(11)), ("\u{1B}[24~", .function(12)),
        ("\u{1B}[15;5~", .function(5)), ("\u{1B}[24;2~", .function(12)), ("\u{1B}[23$", .function(11)), ("\u{1B}[24^", .function(12)),
        // Shift-Tab; the application keypad's Enter and digits.
        ("\u{1B}[Z", .tab), ("\u{1B}OM", .enter), ("\u{1B}Oq", .character("1")), ("\u{1B}Ok", .character("+")),
        // The mouse wheel: SGR 1006 (with modifiers), the legacy X10 form (button + 32, column + 32, row + 32).
        ("\u{1B}[<64;10;5M", .wheelUp), ("\u{1B}[<65;1;1M", .wheelDown), ("\u{1B}[<80;3;4M", .wheelUp),
        ("\u{1B}[M`!!", .wheelUp), ("\u{1B}[Ma*%", .wheelDown),
        // Alt-b, Alt-f: a word left, right; Alt-Enter: a new line.
        ("\u{1B}b", .wordLeft), ("\u{1B}f", .wordRight), ("\u{1B}\r", .newline),
    ]

    @Test(arguments: spellings) func decodesASpelling(_ sequence: String, _ key: Key) {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode(sequence.unicodeScalars) == [.key(key)])
        #expect(!decoder.isHoldingSequence)
        #expect(decoder.escapeDelayPassed() == [])
    }

    @Test(arguments: spellings) func decodesASpellingCutBetweenTwoReads(_ sequence: String, _ key: Key) {
        let scalars = Array(sequence.unicodeScalars)
        for cut in 1..<scalars.count {
            var decoder = KeySequenceDecoder()
            #expect(decoder.decode(scalars[..<cut]) == [], "cut after \(cut)")
            #expect(decoder.isHoldingSequence)
            #expect(decoder.decode(scalars[cut...]) == [.key(key)], "cut after \(cut)")
        }
    }

    @Test(arguments: spellings) func aSpellingBetweenTypedTextIsOneKey(_ sequence: String, _ key: Key) {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("a\(sequence)b".unicodeScalars) == [.key(.character("a")), .key(key), .key(.character("b"))])
    }

    /// Complete sequences that are no key: replies to queries, focus reports, other
    /// mouse buttons, keys the view has no name for, strings.
    static let ignored: [String] = [
        "\u{1B}[?1;2c", "\u{1B}[>41;330;0c", "\u{1B}[?2004;1$y", "\u{1B}[6;16;8t", "\u{1B}[12;40R", "\u{1B}[1;2;3A",
        "\u{1B}[I", "\u{1B}[O", "\u{1B}[E", "\u{1B}OE", "\u{1B}[G", "\u{1B}[27;5;13~", "\u{1B}[97;5u", "\u{1B}[ q",
        "\u{1B}[99~", "\u{1B}[200$", "\u{1B}[[F", "\u{1B}O5z",
        "\u{1B}[<0;10;5M", "\u{1B}[<0;10;5m", "\u{1B}[<64;10;5m", "\u{1B}[M #!", "\u{1B}[<66;1;1M",
        "\u{1B}]11;rgb:0000/0000/0000\u{07}", "\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\", "\u{1B}P1$r0m\u{1B}\\",
        "\u{1B}_Gi=1;OK\u{1B}\\", "\u{1B}^private\u{07}", "\u{1B}Xstring\u{1B}\\",
        // Alt with a key the view does not bind.
        "\u{1B}x", "\u{1B}é", "\u{1B}\u{7F}", "\u{1B}\u{03}",
    ]

    @Test(arguments: ignored) func dropsASequenceThatIsNoKey(_ sequence: String) {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("a\(sequence)b".unicodeScalars) == [.key(.character("a")), .key(.character("b"))])
        #expect(!decoder.isHoldingSequence)
        #expect(decoder.escapeDelayPassed() == [])
    }

    @Test(arguments: ignored) func dropsASequenceThatIsNoKeyCutBetweenTwoReads(_ sequence: String) {
        let scalars = Array(sequence.unicodeScalars)
        for cut in 1..<scalars.count {
            var decoder = KeySequenceDecoder()
            #expect(decoder.decode(scalars[..<cut]) == [])
            #expect(decoder.decode(scalars[cut...] + "z".unicodeScalars) == [.key(.character("z"))], "cut after \(cut)")
        }
    }

    // MARK: Esc

    @Test func aLoneEscIsEscOnlyOnceTheDelayPassed() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}".unicodeScalars) == [])
        #expect(decoder.isHoldingSequence)
        #expect(decoder.escapeDelayPassed() == [.key(.escape)])
        #expect(!decoder.isHoldingSequence)
        #expect(decoder.escapeDelayPassed() == [])
    }

    @Test func anEscFollowedInTimeByTheRestOfASequenceIsNoEsc() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}".unicodeScalars) == [])
        #expect(decoder.decode("[4~".unicodeScalars) == [.key(.end)])
    }

    @Test func anEscThenASequenceAfterTheDelayIsEscThenTheKey() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}".unicodeScalars) == [])
        #expect(decoder.escapeDelayPassed() == [.key(.escape)])
        #expect(decoder.decode("\u{1B}[4~".unicodeScalars) == [.key(.end)])
    }

    @Test func twoEscsTogetherAreTwoEscs() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}\u{1B}".unicodeScalars) == [])
        #expect(decoder.escapeDelayPassed() == [.key(.escape), .key(.escape)])
        #expect(decoder.decode("\u{1B}\u{1B}\u{1B}".unicodeScalars) == [.key(.escape)])
        #expect(decoder.escapeDelayPassed() == [.key(.escape), .key(.escape)])
    }

    @Test func anEscBeforeTypedTextIsAnAltKeyNotEsc() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}\u{1B}x".unicodeScalars) == [.key(.escape)], "the first Esc alone, then Alt-x")
        #expect(decoder.decode("\u{1B}b".unicodeScalars) == [.key(.wordLeft)])
    }

    @Test func anIncompleteSequenceIsDroppedWhenTheDelayPasses() {
        for begun in ["\u{1B}[", "\u{1B}[1;5", "\u{1B}O", "\u{1B}[[", "\u{1B}[M`", "\u{1B}]11;rgb", "\u{1B}\u{1B}[", "\u{1B}P1$r\u{1B}"] {
            var decoder = KeySequenceDecoder()
            #expect(decoder.decode(begun.unicodeScalars) == [], "\(begun.debugDescription)")
            #expect(decoder.isHoldingSequence)
            #expect(decoder.escapeDelayPassed() == [], "\(begun.debugDescription) is no Esc")
            #expect(decoder.decode("x".unicodeScalars) == [.key(.character("x"))], "\(begun.debugDescription)")
        }
    }

    @Test func aControlCharacterCutsASequenceShortAndCounts() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}[1;\r".unicodeScalars) == [.key(.enter)])
        #expect(decoder.decode("\u{1B}[1\u{1B}[A".unicodeScalars) == [.key(.up)])
        #expect(decoder.decode("\u{1B}]title\u{1B}[B".unicodeScalars) == [.key(.down)], "a string ended by another sequence")
    }

    @Test func aLongStringIsDroppedWhole() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode(("\u{1B}]52;c;" + String(repeating: "x", count: 100_000)).unicodeScalars) == [])
        #expect(decoder.isHoldingSequence)
        #expect(decoder.decode("\u{07}y".unicodeScalars) == [.key(.character("y"))])
    }

    // MARK: typed characters

    @Test func controlCharactersAndText() {
        var decoder = KeySequenceDecoder()
        let typed = decoder.decode("\r\n\u{7F}\u{08}\t\u{01}\u{17}\u{0C}\u{1A}\u{00}\u{1C}\u{9B}é中👍".unicodeScalars)
        #expect(typed == [.key(.enter), .key(.newline), .key(.backspace), .key(.backspace), .key(.tab),
                          .key(.control("a")), .key(.control("w")), .key(.control("l")), .key(.control("z")),
                          .key(.character("é")), .key(.character("中")), .key(.character("👍"))])
    }

    // MARK: bracketed paste

    @Test func aBracketedPasteIsOneTextWithItsLineEnds() {
        var decoder = KeySequenceDecoder()
        let read = "\u{1B}[200~first\rsecond\r\nthird\nfourth\u{1B}[201~x"
        #expect(decoder.decode(read.unicodeScalars) == [.paste("first\nsecond\nthird\nfourth"), .key(.character("x"))])
    }

    @Test func aPasteCutBetweenReadsWaitsForItsEndAcrossTheDelay() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}[200~one\u{1B}".unicodeScalars) == [])
        #expect(decoder.escapeDelayPassed() == [], "an ESC inside a paste is no Esc")
        #expect(!decoder.isHoldingSequence, "inside a paste nothing waits for the escape delay")
        // The ESC waited (it may have begun the end marker); what it began is dropped, as any sequence in a paste.
        #expect(decoder.decode(" two\u{1B}[2".unicodeScalars) == [])
        #expect(decoder.decode("01~".unicodeScalars) == [.paste("onetwo")])
    }

    /// A paste whose end marker is cut between reads further apart than the escape delay
    /// (ssh, a long paste) still ends: before, the half marker was dropped and every key
    /// after it, ^C too, went into a paste that never ended.
    @Test func aPasteWhoseEndMarkerIsCutAcrossTheDelayStillEnds() {
        var decoder = KeySequenceDecoder()
        #expect(decoder.decode("\u{1B}[200~one\u{1B}[2".unicodeScalars) == [])
        #expect(decoder.escapeDelayPassed() == [])
        #expect(decoder.decode("01~".unicodeScalars) == [.paste("one")])
        #expect(decoder.decode("\u{03}".unicodeScalars) == [.key(.control("c"))], "keys are keys again")
    }

    @Test func escapeSequencesInsideAPasteAreDropped() {
        var decoder = KeySequenceDecoder()
        let read = "\u{1B}[200~red\u{1B}[31m text\u{1B}]0;title\u{07}\u{1B}[A\u{1B}[201~"
        #expect(decoder.decode(read.unicodeScalars) == [.paste("red text")])
    }
}
