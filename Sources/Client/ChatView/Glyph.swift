/// What one screen cell (or two, for a wide glyph) shows: a base character with its
/// combining marks, and the columns it takes.
package struct Glyph: Hashable, Sendable {
    package var text: String
    /// Columns: 1, 2 for wide glyphs (more only for unusual clusters of several spacing marks).
    package var width: Int

    package init(_ text: String, width: Int) {
        self.text = text; self.width = width
    }

    package static let space = Glyph(" ", width: 1)

    /// ncursesw keeps at most this many combining characters with a base (CCHARW_MAX - 1).
    static let maximumCombining = 4

    /// The glyphs a grapheme cluster is drawn as. Terminals disagree about emoji
    /// sequences (tmux 3.3 draws a ZWJ family in 2 columns, ncurses counts 6, other
    /// terminals 2 or 8) and would misplace everything after them on the line, so
    /// those are made plain first: a ZWJ sequence becomes its emoji side by side,
    /// skin-tone modifiers, variation selectors and tag characters are dropped.
    /// Flags (two regional indicators, 1 column each by wcwidth) stay whole: every
    /// terminal gives them 2 columns in all. Unprintable scalars become U+FFFD; a
    /// cluster with no base (a combining mark at the start of a line) gets a space.
    /// Without Unicode (`LANG=C`), anything beyond printable ASCII is `?`.
    package static func split(_ character: Character, unicode: Bool) -> [Glyph] {
        if let ascii = character.asciiValue {
            if ascii >= 0x20 && ascii < 0x7F { return [Glyph(String(character), width: 1)] }
            return ascii == 0x09 ? [.space] : []
        }
        guard unicode else { return [Glyph("?", width: 1)] }
        let scalars = Array(character.unicodeScalars)
        let pictographic = scalars.contains { $0.value >= 0x2000 && $0.properties.isEmoji }
        var glyphs: [Glyph] = []
        var part: [Unicode.Scalar] = []
        for scalar in scalars {
            if pictographic && scalar.value == 0x200D {
                if let glyph = glyph(part) { glyphs.append(glyph) }
                part.removeAll()
                continue
            }
            if !part.isEmpty && isDecoration(scalar) { continue }
            part.append(scalar)
        }
        if let glyph = glyph(part) { glyphs.append(glyph) }
        return glyphs
    }

    /// Presentation details terminals handle differently: variation selectors 15 and 16,
    /// emoji skin-tone modifiers, tag characters (subdivision flags).
    private static func isDecoration(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE0E, 0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return true
        default: return false
        }
    }

    private static func glyph(_ scalars: [Unicode.Scalar]) -> Glyph? {
        guard !scalars.isEmpty else { return nil }
        var text = String.UnicodeScalarView()
        var width = 0
        var combining = 0
        for scalar in scalars {
            switch DisplayWidth.of(scalar) {
            case -1:
                text.append("\u{FFFD}")
                width += 1
            case 0:
                if width == 0 { text.append(" "); width = 1 }
                guard combining < maximumCombining else { continue }
                combining += 1
                text.append(scalar)
            case let w:
                text.append(scalar)
                width += w
            }
        }
        return Glyph(String(text), width: width)
    }
}
