/// A preview as rows of ordinary cells, ready for a grid of styled cells.
public struct SymbolGrid: Sendable, Equatable {
    public let footprint: CellFootprint
    /// Row by row, `footprint.columns` a row.
    public let cells: [PreviewCell]

    init(footprint: CellFootprint, cells: [PreviewCell]) {
        precondition(cells.count == footprint.columns * footprint.rows, "a \(footprint) grid of \(cells.count) cells")
        self.footprint = footprint; self.cells = cells
    }

    public subscript(column: Int, row: Int) -> PreviewCell {
        cells[row * footprint.columns + column]
    }

    public var rows: [ArraySlice<PreviewCell>] {
        (0..<footprint.rows).map { cells[$0 * footprint.columns..<($0 + 1) * footprint.columns] }
    }

    /// The characters alone, a line a row: for tests and plain logs.
    public var text: String {
        rows.map { String($0.map(\.character)) }.joined(separator: "\n")
    }
}
