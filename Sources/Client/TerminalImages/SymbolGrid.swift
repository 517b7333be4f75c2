/// A preview as rows of ordinary cells, ready for a grid of styled cells.
package struct SymbolGrid: Sendable, Equatable {
    package let footprint: CellFootprint
    /// Row by row, `footprint.columns` a row.
    package let cells: [PreviewCell]

    init(footprint: CellFootprint, cells: [PreviewCell]) {
        precondition(cells.count == footprint.columns * footprint.rows, "a \(footprint) grid of \(cells.count) cells")
        self.footprint = footprint; self.cells = cells
    }

    package subscript(column: Int, row: Int) -> PreviewCell {
        cells[row * footprint.columns + column]
    }

    package var rows: [ArraySlice<PreviewCell>] {
        (0..<footprint.rows).map { cells[$0 * footprint.columns..<($0 + 1) * footprint.columns] }
    }

    /// The characters alone, a line a row: for tests and plain logs.
    package var text: String {
        rows.map { String($0.map(\.character)) }.joined(separator: "\n")
    }
}
