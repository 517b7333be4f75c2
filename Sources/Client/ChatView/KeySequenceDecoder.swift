/// The characters a terminal sends, as keys and pastes, whatever its terminfo entry
/// says (tmux, ssh and `TERM` often disagree about how End is spelt): the usual CSI
/// and SS3 spellings of xterm, vt220, rxvt and the Linux console, with their
/// modifiers; bracketed paste; the mouse wheel (SGR 1006 and the legacy form).
///
/// A sequence cut between two reads is held until the rest comes. ESC alone means Esc
/// only once the caller says the escape delay passed with nothing behind it
/// (`escapeDelayPassed()`); any other complete sequence that is no key (a reply, a
/// focus report, a key the view has no name for) is dropped, never taken for Esc or
/// typed text.
package struct KeySequenceDecoder: Sendable {
    package enum Output: Hashable, Sendable {
        case key(Key)
        /// A bracketed paste, its line ends as `\n`.
        case paste(String)
    }

    /// An escape sequence begun and not complete yet (starts with ESC).
    private var held: [Unicode.Scalar] = []
    /// Inside a bracketed paste: its text so far.
    private var pasted: String?
    /// The paste's last character was a CR, so an LF right after it adds no second line.
    private var pastedCR = false

    /// Longer than any key's CSI or SS3: such a run is dropped, not held forever.
    private static let longest = 256
    /// What starts a control string (OSC, DCS, SOS, PM, APC) after ESC.
    private static let stringIntroducers: Set<Unicode.Scalar> = ["]", "P", "X", "^", "_"]

    package init() {}

    /// Whether an escape sequence is held outside a paste: unless more comes within the
    /// escape delay, the caller calls `escapeDelayPassed()`. (Inside a paste a held
    /// sequence may be its end marker cut between reads: it waits for the rest.)
    package var isHoldingSequence: Bool { !held.isEmpty && pasted == nil }

    /// Decodes what was read; keeps an incomplete sequence for the next call.
    package mutating func decode(_ scalars: some Sequence<Unicode.Scalar>) -> [Output] {
        var outputs: [Output] = []
        for scalar in scalars { take(scalar, into: &outputs) }
        return outputs
    }

    /// Nothing followed in time: a held ESC (or two) is Esc, an incomplete sequence is
    /// dropped. A paste stays open until its end marker.
    package mutating func escapeDelayPassed() -> [Output] {
        guard pasted == nil else { return [] }
        defer { held.removeAll() }
        guard !held.isEmpty, held.allSatisfy({ $0 == Self.escape }) else { return [] }
        return Array(repeating: .key(.escape), count: held.count)
    }

    // MARK: taking characters

    private static let escape: Unicode.Scalar = "\u{1B}"

    private mutating func take(_ scalar: Unicode.Scalar, into outputs: inout [Output]) {
        guard !held.isEmpty || scalar == Self.escape else { return plain(scalar, into: &outputs) }
        held.append(scalar)
        switch Self.parse(held) {
        case .incomplete:
            if held.count > 1 && Self.stringIntroducers.contains(held[1]) {
                // A string (a clipboard reply can be long) is dropped whole: only its last character matters.
                if held.count > 3 { held = [held[0], held[1], held[held.count - 1]] }
            } else if held.count > Self.longest {
                held.removeAll()
            }
        case .complete(let meaning, let length):
            let rest = held[length...]
            held.removeAll()
            apply(meaning, into: &outputs)
            // What ended a broken sequence, or what follows an Esc, starts afresh.
            for scalar in rest { take(scalar, into: &outputs) }
        }
    }

    private mutating func plain(_ scalar: Unicode.Scalar, into outputs: inout [Output]) {
        if pasted != nil {
            let cr = pastedCR
            pastedCR = scalar == "\r"
            if scalar == "\n" && cr { return }
            pasted!.unicodeScalars.append(scalar == "\r" ? "\n" : scalar)
            return
        }
        switch scalar.value {
        case 13: outputs.append(.key(.enter))
        case 10: outputs.append(.key(.newline))
        case 127, 8: outputs.append(.key(.backspace))
        case 9: outputs.append(.key(.tab))
        case 1...26: outputs.append(.key(.control(Character(Unicode.Scalar(scalar.value + 96)!))))
        case 0..<32, 128..<160: break
        default: outputs.append(.key(.character(Character(scalar))))
        }
    }

    private mutating func apply(_ meaning: Meaning, into outputs: inout [Output]) {
        if let text = pasted {
            // Inside a paste only its end counts: escape sequences in pasted text are dropped.
            guard meaning == .pasteEnd else { return }
            outputs.append(.paste(text))
            pasted = nil
            pastedCR = false
            return
        }
        switch meaning {
        case .key(let key): outputs.append(.key(key))
        case .pasteStart: pasted = ""
        case .pasteEnd, .nothing: break
        }
    }

    // MARK: parsing a held sequence

    private enum Meaning: Equatable {
        case key(Key)
        case pasteStart, pasteEnd
        /// A complete sequence that is no key.
        case nothing
    }

    private enum Parse {
        case incomplete
        /// The first `length` characters held mean `meaning`; the rest are taken again.
        case complete(Meaning, length: Int)
    }

    /// `sequence` starts with ESC.
    private static func parse(_ sequence: [Unicode.Scalar]) -> Parse {
        guard sequence.count >= 2 else { return .incomplete }
        switch sequence[1] {
        case "[": return controlSequence(sequence, from: 2, alt: false)
        case "O": return singleShift(sequence, from: 2, alt: false)
        case _ where stringIntroducers.contains(sequence[1]): return controlString(sequence)
        case escape:
            // ESC ESC [ … : rxvt's Alt with a key; else the first ESC was Esc on its own.
            guard sequence.count >= 3 else { return .incomplete }
            switch sequence[2] {
            case "[": return controlSequence(sequence, from: 3, alt: true)
            case "O": return singleShift(sequence, from: 3, alt: true)
            default: return .complete(.key(.escape), length: 1)
            }
        case "b": return .complete(.key(.wordLeft), length: 2)
        case "f": return .complete(.key(.wordRight), length: 2)
        case "\r", "\n": return .complete(.key(.newline), length: 2)
        default:
            // Alt with another key: nothing the view binds.
            return .complete(.nothing, length: 2)
        }
    }

    /// CSI: parameters (0x30–0x3F) and intermediates (0x20–0x2F) up to a final byte
    /// (0x40–0x7E). Three spellings break that grammar and are read first: the Linux
    /// console's `ESC [ [ A`, the legacy mouse report `ESC [ M` with three raw bytes,
    /// and rxvt's shifted keys ending in `$` (`ESC [ 2 $`).
    private static func controlSequence(_ sequence: [Unicode.Scalar], from start: Int, alt: Bool) -> Parse {
        guard sequence.count > start else { return .incomplete }
        if sequence[start] == "[" {
            guard sequence.count > start + 1 else { return .incomplete }
            let final = sequence[start + 1]
            guard !isControl(final) else { return .complete(.nothing, length: start + 1) }
            let number = Int(final.value) - Int(("A" as Unicode.Scalar).value) + 1
            return .complete((1...5).contains(number) ? .key(.function(number)) : .nothing, length: start + 2)
        }
        if sequence[start] == "M" {
            guard sequence.count >= start + 4 else { return .incomplete }
            let button = Int(sequence[start + 1].value) - 32
            return .complete(wheel(button), length: start + 4)
        }
        for index in start..<sequence.count {
            let value = sequence[index].value
            switch value {
            case 0x24 where index > start && sequence[start..<index].allSatisfy(isDigit):
                return .complete(withAlt(tildeKey(sequence[start..<index], final: "$"), alt), length: index + 1)
            case 0x20...0x3F:
                continue
            case 0x40...0x7E:
                return .complete(withAlt(csiMeaning(sequence[start..<index], final: sequence[index]), alt), length: index + 1)
            default:
                // A control character or a non-ASCII one cut it short: dropped, and that character taken again.
                return .complete(.nothing, length: index)
            }
        }
        return .incomplete
    }

    private static func csiMeaning(_ body: ArraySlice<Unicode.Scalar>, final: Unicode.Scalar) -> Meaning {
        if body.first == "<" {
            // SGR mouse report: ESC [ < button ; column ; row M (press) or m (release).
            guard final == "M", let button = parameters(body.dropFirst()).first ?? nil else { return .nothing }
            return wheel(button)
        }
        guard body.allSatisfy({ $0.value >= 0x30 && $0.value <= 0x3B }) else { return .nothing }
        switch final {
        case "A", "B", "C", "D", "H", "F", "P", "Q", "R", "S":
            return modifiers(parameters(body)).map { letterKey(final, modifiers: $0) } ?? .nothing
        case "Z": return .key(.tab)
        // rxvt's shifted arrows.
        case "a": return body.isEmpty ? .key(.up) : .nothing
        case "b": return body.isEmpty ? .key(.down) : .nothing
        case "c": return body.isEmpty ? .key(.right) : .nothing
        case "d": return body.isEmpty ? .key(.left) : .nothing
        case "~", "^", "@": return tildeKey(body, final: final)
        default: return .nothing
        }
    }

    /// vt220's `ESC [ n ~` keys; rxvt's end in `^` with Ctrl, `$` with Shift, `@` with both.
    private static func tildeKey(_ body: ArraySlice<Unicode.Scalar>, final: Unicode.Scalar) -> Meaning {
        let numbers = parameters(body)
        guard let first = numbers.first, let number = first, numbers.count <= (final == "~" ? 2 : 1) else { return .nothing }
        switch number {
        case 1, 7: return .key(.home)
        case 2: return .key(.insert)
        case 3: return .key(.delete)
        case 4, 8: return .key(.end)
        case 5: return .key(.pageUp)
        case 6: return .key(.pageDown)
        case 11...15: return .key(.function(number - 10))
        case 17...21: return .key(.function(number - 11))
        case 23...26: return .key(.function(number - 12))
        case 28, 29: return .key(.function(number - 13))
        case 31...34: return .key(.function(number - 14))
        case 200 where final == "~": return .pasteStart
        case 201 where final == "~": return .pasteEnd
        default: return .nothing
        }
    }

    /// SS3: one final character, after xterm's and konsole's optional modifier (`ESC O 5 D`).
    private static func singleShift(_ sequence: [Unicode.Scalar], from start: Int, alt: Bool) -> Parse {
        for index in start..<sequence.count {
            let value = sequence[index].value
            switch value {
            case 0x30...0x3B:
                continue
            case 0x20...0x7E:
                return .complete(withAlt(ss3Meaning(sequence[start..<index], final: sequence[index]), alt), length: index + 1)
            default:
                return .complete(.nothing, length: index)
            }
        }
        return .incomplete
    }

    /// The application keypad's keys as what they type.
    private static let keypad: [Unicode.Scalar: Character] = [
        "j": "*", "k": "+", "l": ",", "m": "-", "n": ".", "o": "/", "X": "=",
        "p": "0", "q": "1", "r": "2", "s": "3", "t": "4", "u": "5", "v": "6", "w": "7", "x": "8", "y": "9",
    ]

    private static func ss3Meaning(_ body: ArraySlice<Unicode.Scalar>, final: Unicode.Scalar) -> Meaning {
        switch final {
        case "A", "B", "C", "D", "H", "F", "P", "Q", "R", "S":
            return modifiers(parameters(body)).map { letterKey(final, modifiers: $0) } ?? .nothing
        case _ where !body.isEmpty: return .nothing
        // rxvt's arrows with Ctrl.
        case "a": return .key(.up)
        case "b": return .key(.down)
        case "c": return .key(.wordRight)
        case "d": return .key(.wordLeft)
        case "M": return .key(.enter)
        default: return keypad[final].map { .key(.character($0)) } ?? .nothing
        }
    }

    /// Arrows, Home, End and F1–F4, with xterm's modifier (1 + Shift 1, Alt 2, Ctrl 4,
    /// Meta 8): Ctrl, Alt or Meta with ← or → moves a word; otherwise the key as is.
    private static func letterKey(_ final: Unicode.Scalar, modifiers: Int) -> Meaning {
        let word = modifiers & 0b1110 != 0
        switch final {
        case "A": return .key(.up)
        case "B": return .key(.down)
        case "C": return .key(word ? .wordRight : .right)
        case "D": return .key(word ? .wordLeft : .left)
        case "H": return .key(.home)
        case "F": return .key(.end)
        default: return .key(.function(Int(final.value - ("P" as Unicode.Scalar).value) + 1))
        }
    }

    /// The modifier bits of `ESC [ 1 ; m X`, or of the older `ESC [ m X`; nil when the
    /// parameters are not a key's (a cursor position report, say).
    private static func modifiers(_ numbers: [Int?]) -> Int? {
        switch numbers.count {
        case 0: return 0
        case 1: return max(0, (numbers[0] ?? 1) - 1)
        case 2 where numbers[0] == nil || numbers[0] == 1: return max(0, (numbers[1] ?? 1) - 1)
        default: return nil
        }
    }

    /// Alt given as an ESC before the sequence (rxvt): ← and → move a word.
    private static func withAlt(_ meaning: Meaning, _ alt: Bool) -> Meaning {
        guard alt else { return meaning }
        switch meaning {
        case .key(.left): return .key(.wordLeft)
        case .key(.right): return .key(.wordRight)
        default: return meaning
        }
    }

    /// Mouse button codes (Shift 4, Meta 8 and Ctrl 16 added): 64 wheel up, 65 wheel down.
    private static func wheel(_ button: Int) -> Meaning {
        switch button & ~0b11100 {
        case 64: return .key(.wheelUp)
        case 65: return .key(.wheelDown)
        default: return .nothing
        }
    }

    /// OSC, DCS, APC, PM and SOS: a string up to ST (`ESC \`) or BEL, dropped whole.
    private static func controlString(_ sequence: [Unicode.Scalar]) -> Parse {
        var index = 2
        while index < sequence.count {
            switch sequence[index] {
            case "\u{07}", "\u{9C}":
                return .complete(.nothing, length: index + 1)
            case escape:
                guard index + 1 < sequence.count else { return .incomplete }
                // Any other ESC ends the string and starts a sequence of its own.
                return .complete(.nothing, length: sequence[index + 1] == "\\" ? index + 2 : index)
            default:
                index += 1
            }
        }
        return .incomplete
    }

    /// `1;5` as `[1, 5]`, an empty field as nil (each field's leading digits: `5:1` is 5).
    private static func parameters(_ body: ArraySlice<Unicode.Scalar>) -> [Int?] {
        guard !body.isEmpty else { return [] }
        return body.split(separator: ";", omittingEmptySubsequences: false).map { field in
            let digits = field.prefix(while: isDigit)
            return digits.isEmpty ? nil : Int(String(String.UnicodeScalarView(digits)))
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) }
}
