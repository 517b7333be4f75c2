/// Makes text that came from a server or another user safe for a terminal:
/// escape sequences (CSI, OSC, DCS, …) and other control characters are
/// removed, so a message cannot move the cursor, retitle the window or hide text.
package enum TerminalText {
    /// What becomes of a line break: kept (a message's text), or a space (anything
    /// shown on one line: a table cell, a name, an error).
    package enum Newlines: Sendable {
        case kept, asSpaces
    }

    package static func sanitize(_ text: String, newlines: Newlines = .kept) -> String {
        if isInert(text, newlines: newlines) { return text }
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
                out.append(newlines == .kept ? s : " ")
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

    /// True when nothing in the text needs removing: no C0/C1 control (other
    /// than tab, and newline when kept), no DEL, no bidi override. The common
    /// case, checked on the UTF-8 bytes without building a new string.
    static func isInert(_ text: String, newlines: Newlines) -> Bool {
        var text = text
        return text.withUTF8 { isInert($0, newlines: newlines) }
    }

    /// Over the bytes themselves: printable ASCII, nearly every byte, costs one comparison.
    private static func isInert(_ bytes: UnsafeBufferPointer<UInt8>, newlines: Newlines) -> Bool {
        for i in bytes.indices {
            let byte = bytes[i]
            if byte >= 0x20 && byte < 0x7F { continue }
            let previous = i > 0 ? bytes[i - 1] : 0, beforePrevious = i > 1 ? bytes[i - 2] : 0
            switch byte {
            case 0x09: break
            case 0x0A: if newlines == .asSpaces { return false }
            case 0x00...0x1F, 0x7F: return false
            case 0x80...0x9F where previous == 0xC2: return false // C1 controls, U+0080–U+009F
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return false // U+202A–U+202E
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return false // U+2066–U+2069
            default: break
            }
        }
        return true
    }
}
