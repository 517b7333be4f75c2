/// How many terminal columns text takes, measured the way ncursesw will draw it:
/// per scalar with glibc's `wcwidth` (`WidthTable`), per grapheme cluster as the
/// sum of its scalars. Sequences that terminals disagree about are first made
/// plain by `Glyph.split`, so the count is the same on every terminal.
package enum DisplayWidth {
    /// 0 (combining marks, format characters), 1, 2 (wide: CJK, emoji
    /// presentation), or -1 (controls, unassigned: `Glyph.split` replaces them).
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if contains(WidthTable.zero, value) { return 0 }
        if contains(WidthTable.wide, value) { return 2 }
        if contains(WidthTable.unprintable, value) { return -1 }
        return 1
    }

    /// The columns `text` takes once split into glyphs (what the renderer draws).
    package static func of(_ text: some StringProtocol, unicode: Bool = true) -> Int {
        var total = 0
        for character in text {
            if character.isASCII, let byte = character.asciiValue, byte >= 0x20 && byte < 0x7F { total += 1; continue }
            for glyph in Glyph.split(character, unicode: unicode) { total += glyph.width }
        }
        return total
    }

    /// Binary search of sorted, inclusive `lo, hi` pairs.
    static func contains(_ ranges: [UInt32], _ value: UInt32) -> Bool {
        var low = 0, high = ranges.count / 2 - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < ranges[2 * middle] { high = middle - 1 }
            else if value > ranges[2 * middle + 1] { low = middle + 1 }
            else { return true }
        }
        return false
    }
}
