/// Where each part of the screen goes, from the model alone:
///
///     row 0            status line (dialog, connection, unread elsewhere, notices)
///     row 1            rule
///     rows 2 …         the conversation or the dialog list
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
        bodyHeight = max(0, bottomRuleRow - bodyTop)
    }

    /// The conversation area's width (the whole screen).
    package var bodyWidth: Int { width }
}
