/// Where each part of the screen goes, from the model alone:
///
///     row 0            status line (dialog, presence, connection, unread elsewhere)
///     row 1            rule
///     rows 2 …         the conversation or the dialog list
///     0 to 2 rows      a question (`confirming`) or a notice, wrapped
///     one row          rule (with who is typing)
///     one row          while replying or editing: what (MessageActionsRenderer)
///     1 to 5 rows      the input, growing with its text (dialogs screen: the filter)
package struct ScreenAreas {
    package let width: Int
    package let bodyTop = 2
    package let bodyHeight: Int
    package let bottomRuleRow: Int
    package let inputTop: Int
    /// The row above the input that says what is being replied to or edited, when one is.
    package let bannerRow: Int?
    /// A notice's rows (at most two, cut only between words), from `noticeTop`.
    package let noticeRows: [GlyphLine]
    package let noticeTop: Int
    /// The input's rows on the screen, its first row's index among all of them, and the cursor.
    package let inputRows: [GlyphLine]
    package let cursorRow: Int
    package let cursorColumn: Int

    /// The prompt before the input: `> `.
    package static let promptWidth = 2

    package init(_ model: ScreenModel) {
        width = model.width
        let maxInputRows = model.height >= 20 ? 5 : 3
        if model.screen == .conversation {
            let laid = model.input.rows(width: max(2, model.width - Self.promptWidth - 1), unicode: model.profile.unicode)
            let shown = min(maxInputRows, laid.rows.count)
            let first = max(0, min(laid.cursorRow - (shown - 1), laid.rows.count - shown))
            inputRows = Array(laid.rows[first..<first + shown])
            cursorRow = laid.cursorRow - first
            cursorColumn = laid.cursorColumn + Self.promptWidth
        } else {
            inputRows = [GlyphLine()]
            cursorRow = 0
            cursorColumn = 0
        }
        inputTop = model.height - inputRows.count
        bannerRow = model.screen == .conversation && model.composing != nil ? inputTop - 1 : nil
        bottomRuleRow = inputTop - 1 - (bannerRow == nil ? 0 : 1)
        // A question waiting for its answer comes before any notice; a contact request waiting shows when none does.
        let notice = model.confirming?.question ?? model.notice ?? model.contactRequestNotice
        noticeRows = notice.map { Self.noticeLines($0, width: model.width - 2, unicode: model.profile.unicode) } ?? []
        noticeTop = bottomRuleRow - noticeRows.count
        bodyHeight = max(0, noticeTop - bodyTop)
    }

    /// A notice in at most two rows, broken between words; a longer one ends its second
    /// row with an ellipsis after the last whole word that fits.
    static func noticeLines(_ text: String, width: Int, unicode: Bool) -> [GlyphLine] {
        let width = max(4, width)
        let lines = GlyphLine.wrap(text, width: width, unicode: unicode)
        guard lines.count > 2 else { return lines }
        let ellipsis = Glyph(unicode ? "…" : "~", width: 1)
        var second = lines[1].glyphs
        while !second.isEmpty && second.reduce(0, { $0 + $1.width }) + 2 > width { second.removeLast() }
        // Back to the end of a whole word.
        if let space = second.lastIndex(of: .space) { second.removeSubrange(space...) }
        return [lines[0], GlyphLine(second + [.space, ellipsis])]
    }

    /// The conversation area's width (the whole screen).
    package var bodyWidth: Int { width }
}
