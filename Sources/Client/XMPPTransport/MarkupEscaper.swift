/// Text made inert inside markup: XML character data and attribute values (stanzas), HTML
/// (the export) and the markup subset of a desktop notification. One escaper, told which
/// characters each place must write as references, so a character is escaped the same
/// way wherever it is: it lives here, the lowest client module whose markup needs it, and
/// Presentation and ChatctlCLI import it from here.
package struct MarkupEscaper: Sendable {
    /// What each ASCII character becomes; nil: itself.
    private let references: [String?]
    /// Whether a byte needs the slow path: it has a reference, or (when `replacesUncarriable`)
    /// it is a C0 control without one or 0xEF, the lead byte of U+FFFE and U+FFFF.
    private let looked: [Bool]
    /// Whether what XML 1.0 cannot carry at all, not even as a reference, becomes U+FFFD.
    private let replacesUncarriable: Bool

    private init(_ references: [Unicode.Scalar: String], replacesUncarriable: Bool) {
        var table = [String?](repeating: nil, count: 128)
        for (scalar, reference) in references { table[Int(scalar.value)] = reference }
        self.references = table
        self.replacesUncarriable = replacesUncarriable
        looked = (0...255).map { byte in
            byte < 128 && table[byte] != nil
                || replacesUncarriable && (byte == 0xEF || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D))
        }
    }

    /// XML character data: `&<>`, and CR as `&#13;` (line-end normalization would turn CRLF
    /// into LF); TAB and LF as they are. Whatever XML cannot carry becomes U+FFFD rather than
    /// break the stream.
    package static let xmlText = MarkupEscaper(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"],
                                               replacesUncarriable: true)

    /// An XML attribute value in either quote: `xmlText`'s, the quotes, and TAB and LF as
    /// references (attribute-value normalization would make them spaces).
    package static let xmlAttribute = MarkupEscaper(
        ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;", "\"": "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;"],
        replacesUncarriable: true)

    /// HTML text in an element or a quoted attribute: `& < > " '` as character references
    /// (`&#39;`: HTML 4 has no `&apos;`).
    package static let html = MarkupEscaper(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"],
                                            replacesUncarriable: false)

    /// A desktop notification's body markup (XML-like: `<b>`, `<a>`, `<img>`, entities):
    /// `&`, `<` and `>`, all that can start a tag or an entity in its text.
    package static let notificationBody = MarkupEscaper(["&": "&amp;", "<": "&lt;", ">": "&gt;"],
                                                        replacesUncarriable: false)

    /// Whether escaping would change `text`. Checked on the contiguous bytes: through the
    /// UTF8View it was most of writing a chat marker.
    package func changes(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in bytes.contains { looked[Int($0)] } }
    }

    /// `text` escaped.
    package func escaping(_ text: String) -> String {
        guard changes(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        appendEscaped(text, to: &out)
        return out
    }

    /// Appends `text` escaped to `out` (one copy when nothing needs escaping).
    package func append(_ text: String, to out: inout String) {
        guard changes(text) else { out += text; return }
        appendEscaped(text, to: &out)
    }

    private func appendEscaped(_ text: String, to out: inout String) {
        for scalar in text.unicodeScalars {
            if scalar.value < 128, let reference = references[Int(scalar.value)] {
                out += reference
            } else if replacesUncarriable && Self.isUncarriable(scalar) {
                out.unicodeScalars.append("\u{FFFD}")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    /// C0 controls other than TAB/LF/CR, U+FFFE and U+FFFF: not XML 1.0 characters.
    private static func isUncarriable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// The first character XML 1.0 cannot carry at all, not even as a character
    /// reference (C0 controls other than TAB/LF/CR, e.g. ESC; U+FFFE, U+FFFF).
    /// A server would close the stream on it, losing every unacknowledged message.
    package static func firstCharacterXMLCannotCarry(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isUncarriable)
    }
}
