/// One line of glyphs and the columns it takes.
package struct GlyphLine: Hashable, Sendable {
    package var glyphs: [Glyph]
    package var width: Int

    package init(_ glyphs: [Glyph] = []) {
        self.glyphs = glyphs
        width = glyphs.reduce(0) { $0 + $1.width }
    }

    /// `text` as one line (newlines as spaces), cut to `maxWidth` columns with a
    /// final `…` (`~` without Unicode) when it does not fit.
    package init(_ text: String, maxWidth: Int = .max, unicode: Bool) {
        var glyphs: [Glyph] = []
        var width = 0
        for character in text {
            let parts = character == "\n" || character == "\r\n" ? [Glyph.space] : Glyph.split(character, unicode: unicode)
            for glyph in parts {
                glyphs.append(glyph)
                width += glyph.width
            }
        }
        self.glyphs = glyphs
        self.width = width
        if width > maxWidth { truncate(to: maxWidth, unicode: unicode) }
    }

    /// Cuts the line to `maxWidth` columns, the last one an ellipsis.
    package mutating func truncate(to maxWidth: Int, unicode: Bool) {
        guard width > maxWidth else { return }
        guard maxWidth > 0 else { self = GlyphLine(); return }
        var kept: [Glyph] = []
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > maxWidth - 1 { break }
            kept.append(glyph)
            used += glyph.width
        }
        kept.append(Glyph(unicode ? "…" : "~", width: 1))
        self = GlyphLine(kept)
    }

    /// The text as wrapped lines at most `width` columns wide: newlines end lines,
    /// lines break after spaces where they can and inside a word only when it is
    /// longer than a line. Spaces where a line breaks are dropped.
    package static func wrap(_ text: String, width: Int, unicode: Bool) -> [GlyphLine] {
        let width = max(1, width)
        var lines: [GlyphLine] = []
        var paragraph: [Glyph] = []
        for character in text {
            if character == "\n" || character == "\r\n" {
                lines += wrap(paragraph, width: width)
                paragraph.removeAll(keepingCapacity: true)
            } else {
                paragraph += Glyph.split(character, unicode: unicode)
            }
        }
        lines += wrap(paragraph, width: width)
        return lines
    }

    private static func wrap(_ glyphs: [Glyph], width: Int) -> [GlyphLine] {
        var lines: [GlyphLine] = []
        var start = 0
        while true {
            // Skip the spaces a wrapped line would start with.
            if !lines.isEmpty { while start < glyphs.count && glyphs[start] == .space { start += 1 } }
            if start >= glyphs.count { break }
            var used = 0
            var end = start
            var lastBreak: Int?  // index after the last space that fits
            while end < glyphs.count && used + glyphs[end].width <= width {
                used += glyphs[end].width
                if glyphs[end] == .space { lastBreak = end + 1 }
                end += 1
            }
            if end < glyphs.count {
                if glyphs[end] == .space { lastBreak = end }
                if let cut = lastBreak, cut > start { end = cut }
                // A glyph wider than the whole line still takes a line of its own.
                if end == start { end = start + 1 }
            }
            var line = Array(glyphs[start..<end])
            while line.count > 1 && line.last == .space && end < glyphs.count { line.removeLast() }
            lines.append(GlyphLine(line))
            start = end
        }
        if lines.isEmpty { lines.append(GlyphLine()) }
        return lines
    }
}
