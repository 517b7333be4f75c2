/// What the renderer makes of the model: the screen as rows of styled cells, where
/// the terminal cursor goes, and escape payloads (sixel, kitty graphics) to be
/// written at given cells after the text. Only the terminal edge draws it.
package struct CellGrid: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]
    /// Where the cursor shows (the input line), or nil to hide it.
    package var cursor: (row: Int, column: Int)? {
        get { cursorRow.map { ($0, cursorColumn) } }
        set { cursorRow = newValue?.row; cursorColumn = newValue?.column ?? 0 }
    }
    private var cursorRow: Int?
    private var cursorColumn = 0
    /// Images drawn by the terminal itself over blank cells (ImagePreview.escape).
    package var images: [ImagePlacement] = []
    /// Links on the screen, for terminals that make hyperlinks of them (OSC 8).
    package var links: [LinkPlacement] = []
    /// The terminal window's title: the dialog, and unread messages elsewhere while notifying.
    package var title: String?

    package init(width: Int, height: Int) {
        self.width = max(0, width); self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    package subscript(row: Int, column: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// Draws `line` from `column`, clipped at `limit` (default: the right edge); a
    /// wide glyph that would not fit whole is left out. Returns the column after it.
    @discardableResult
    package mutating func put(_ line: GlyphLine, row: Int, column: Int, style: CellStyle, limit: Int? = nil) -> Int {
        put(line.glyphs, row: row, column: column, style: style, limit: limit)
    }

    @discardableResult
    package mutating func put(_ glyphs: [Glyph], row: Int, column: Int, style: CellStyle, limit: Int? = nil) -> Int {
        guard row >= 0 && row < height else { return column }
        let end = min(limit ?? width, width)
        var x = column
        for glyph in glyphs {
            guard x + glyph.width <= end else { break }
            if x >= 0 {
                clearWideGlyph(row: row, column: x)
                self[row, x] = Cell(glyph.text, style: style)
                for extra in 1..<max(1, glyph.width) { self[row, x + extra] = Cell(Cell.continuation.text, style: style) }
                if glyph.width > 1 { clearWideGlyph(row: row, column: x + glyph.width) }
            }
            x += glyph.width
        }
        return x
    }

    /// `text` on one line (see `GlyphLine(_:maxWidth:unicode:)`).
    @discardableResult
    package mutating func put(_ text: String, row: Int, column: Int, style: CellStyle, unicode: Bool, limit: Int? = nil) -> Int {
        put(GlyphLine(text, unicode: unicode), row: row, column: column, style: style, limit: limit)
    }

    /// Fills `columns` of `row` with `glyph` (1 column wide).
    package mutating func fill(row: Int, columns: Range<Int>, with text: String = " ", style: CellStyle = .plain) {
        guard row >= 0 && row < height else { return }
        for x in max(0, columns.lowerBound)..<min(width, max(columns.lowerBound, columns.upperBound)) {
            clearWideGlyph(row: row, column: x)
            self[row, x] = Cell(text, style: style)
        }
    }

    /// Restyles cells without changing what they show (a selection, a reverse status line).
    package mutating func restyle(row: Int, columns: Range<Int>, _ change: (inout CellStyle) -> Void) {
        guard row >= 0 && row < height else { return }
        for x in max(0, columns.lowerBound)..<min(width, max(columns.lowerBound, columns.upperBound)) {
            change(&cells[row * width + x].style)
        }
    }

    /// Overwriting half of a wide glyph blanks the other half, as a terminal does.
    private mutating func clearWideGlyph(row: Int, column: Int) {
        guard column < width else { return }
        if self[row, column].isContinuation && column > 0 {
            var x = column - 1
            while x > 0 && self[row, x].isContinuation { x -= 1 }
            for blank in x..<column { self[row, blank] = Cell(" ", style: self[row, blank].style) }
        }
        var x = column + 1
        while x < width && self[row, x].isContinuation {
            self[row, x] = Cell(" ", style: self[row, x].style)
            x += 1
        }
    }

    /// The text of one row, as a terminal would show it (trailing blanks kept).
    package func text(row: Int) -> String {
        var line = ""
        for x in 0..<width where !self[row, x].isContinuation { line += self[row, x].text }
        return line
    }

    /// Every row, trailing blanks removed, joined by newlines: what golden tests compare.
    package var snapshot: String {
        (0..<height).map { row in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    package static func == (lhs: CellGrid, rhs: CellGrid) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells && lhs.cursorRow == rhs.cursorRow
            && lhs.cursorColumn == rhs.cursorColumn && lhs.images == rhs.images
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(width); hasher.combine(height); hasher.combine(cells)
    }
}
