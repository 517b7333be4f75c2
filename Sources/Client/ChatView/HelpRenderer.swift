/// Draws the help overlay (`HelpOverlay`): a box over the middle of the screen, keys
/// on the left, what they do on the right, the way out in its bottom border.
struct HelpRenderer {
    let help: HelpOverlay
    let theme: Theme

    func draw(into grid: inout CellGrid) {
        let boxWidth = HelpOverlay.boxWidth(screenWidth: grid.width)
        let rows = HelpOverlay.rows(boxWidth: boxWidth, unicode: theme.unicode)
        let frame = HelpOverlay.frame(width: grid.width, height: grid.height, rowCount: rows.count)
        guard frame.width >= 20, frame.height >= 3 else { return }
        let right = frame.column + frame.width - 1
        let bottom = frame.row + frame.height - 1
        for row in frame.row...bottom { grid.fill(row: row, columns: frame.column..<right + 1, style: .plain) }
        border(row: frame.row, left: theme.topLeft, right: theme.topRight, title: " help ", frame: frame, into: &grid)
        let visible = frame.height - 2
        let footer = rows.count > visible ? " \(theme.unicode ? "↑↓ scroll · " : "Up/Down scroll - ")Esc closes " : " Esc closes "
        border(row: bottom, left: theme.bottomLeft, right: theme.bottomRight, title: footer, frame: frame, into: &grid)
        let keyWidth = HelpOverlay.keyWidth(boxWidth: frame.width, unicode: theme.unicode)
        for offset in 0..<visible {
            let y = frame.row + 1 + offset
            grid.put(theme.vertical, row: y, column: frame.column, style: theme.rule, unicode: theme.unicode)
            grid.put(theme.vertical, row: y, column: right, style: theme.rule, unicode: theme.unicode)
            let index = help.top + offset
            guard index < rows.count else { continue }
            let line = rows[index]
            let limit = right - 1
            if line.heading {
                grid.put(GlyphLine(line.keys, unicode: theme.unicode), row: y, column: frame.column + 2, style: theme.accent, limit: limit)
                continue
            }
            if !line.keys.isEmpty {
                grid.put(GlyphLine(line.keys, unicode: theme.unicode), row: y, column: frame.column + 3, style: CellStyle(bold: true),
                         limit: limit)
            }
            let start = keyWidth == 0 ? frame.column + 6 : frame.column + 3 + keyWidth + 2
            grid.put(GlyphLine(line.text, unicode: theme.unicode), row: y, column: start, style: .plain, limit: limit)
        }
    }

    private func border(row: Int, left: String, right: String, title: String,
                        frame: (row: Int, column: Int, width: Int, height: Int), into grid: inout CellGrid) {
        grid.put(left, row: row, column: frame.column, style: theme.rule, unicode: theme.unicode)
        grid.fill(row: row, columns: frame.column + 1..<frame.column + frame.width - 1, with: theme.horizontal, style: theme.rule)
        grid.put(right, row: row, column: frame.column + frame.width - 1, style: theme.rule, unicode: theme.unicode)
        let label = GlyphLine(title, maxWidth: max(1, frame.width - 4), unicode: theme.unicode)
        grid.put(label, row: row, column: frame.column + 2, style: theme.faint)
    }
}
