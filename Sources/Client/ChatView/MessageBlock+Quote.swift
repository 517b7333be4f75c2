/// The quote at the top of a reply's or a forward's cell: `↪ name` (`forwarded from`
/// for a forward), then the original's first lines, at most `quoteTextRows`, the last
/// one cut with an ellipsis when more follows. Drawn dimmed inside the cell.
extension MessageBlock {
    /// Lines of the original shown under its sender's name.
    package static let quoteTextRows = 2

    static func quoteLines(_ quote: ShownQuote, maxInner: Int, unicode: Bool) -> [GlyphLine] {
        var header = (unicode ? "↪ " : "> ") + (quote.action == .forward ? "forwarded from " : "") + quote.senderName
        if quote.more > 0 { header += " (+\(quote.more) more)" }
        var lines = [GlyphLine(header, maxWidth: maxInner, unicode: unicode)]
        let indent = 2
        let wrapped = GlyphLine.wrap(quote.text, width: max(1, maxInner - indent), unicode: unicode)
        var shown = Array(wrapped.prefix(quoteTextRows))
        if wrapped.count > quoteTextRows, let last = shown.popLast() {
            // The last line shown ends in an ellipsis: the original goes on.
            var cut = GlyphLine(last.glyphs + [Glyph(unicode ? "…" : "~", width: 1)])
            cut.truncate(to: max(1, maxInner - indent), unicode: unicode)
            shown.append(cut)
        }
        lines += shown.map { GlyphLine(GlyphLine("  ", unicode: unicode).glyphs + $0.glyphs) }
        return lines
    }
}
