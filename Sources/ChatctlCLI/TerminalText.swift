/// Makes text that came from a server or another user safe for a terminal:
/// escape sequences (CSI, OSC, DCS, …) and other control characters are
/// removed, so a message cannot move the cursor, retitle the window or hide text.
public enum TerminalText {
    public static func sanitize(_ text: String, keepNewlines: Bool = true) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let s = scalars.next() {
            switch s.value {
            case 0x1B: // ESC: drop the whole sequence
                guard let kind = scalars.next() else { break }
                switch kind {
                case "[": // CSI: parameters, then one final byte 0x40–0x7E
                    while let c = scalars.next(), !(0x40...0x7E).contains(c.value) {}
                case "]", "P", "X", "^", "_": // OSC/DCS/SOS/PM/APC: up to BEL or ST
                    var previous: Unicode.Scalar = " "
                    while let c = scalars.next() {
                        if c.value == 0x07 || c.value == 0x9C || (previous.value == 0x1B && c == "\\") { break }
                        previous = c
                    }
                default: break // two-byte sequence: drop both
                }
            case 0x9B: // 8-bit CSI
                while let c = scalars.next(), !(0x40...0x7E).contains(c.value) {}
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: // 8-bit OSC/DCS/SOS/PM/APC
                while let c = scalars.next(), c.value != 0x07 && c.value != 0x9C {}
            case 0x0A:
                out.append(keepNewlines ? s : " ")
            case 0x09:
                out.append(s)
            case 0x00...0x1F, 0x7F, 0x80...0x9F:
                break
            case 0x202A...0x202E, 0x2066...0x2069: // bidi overrides/isolates can disguise text
                break
            default:
                out.append(s)
            }
        }
        return String(out)
    }
}
