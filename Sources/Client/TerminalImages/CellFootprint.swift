/// A rectangle of terminal cells: the box a preview may fill, or what it occupies.
package struct CellFootprint: Sendable, Equatable, CustomStringConvertible {
    package let columns: Int
    package let rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = max(0, columns); self.rows = max(0, rows)
    }

    package static let zero = CellFootprint(columns: 0, rows: 0)
    package var isEmpty: Bool { columns == 0 || rows == 0 }
    package var description: String { "\(columns)×\(rows) cells" }

    /// The cells an `imageWidth`×`imageHeight` image takes inside `box`: as large
    /// as fits, never larger than the image at one pixel per pixel, its shape kept
    /// (cells of `cell` pixels, so a square image is about twice as many columns as
    /// rows in a 1:2 cell). At least one cell, unless the box has none.
    package static func fitting(imageWidth: Int, imageHeight: Int, in box: CellFootprint, cell: CellSize = .assumed) -> CellFootprint {
        guard !box.isEmpty, imageWidth > 0, imageHeight > 0 else { return .zero }
        // The image's size in cells at its own size, then one scale for both sides.
        let naturalColumns = Double(imageWidth) / Double(cell.width)
        let naturalRows = Double(imageHeight) / Double(cell.height)
        let scale = min(1, Double(box.columns) / naturalColumns, Double(box.rows) / naturalRows)
        let columns = min(box.columns, max(1, Int((naturalColumns * scale).rounded())))
        let rows = min(box.rows, max(1, Int((naturalRows * scale).rounded())))
        return CellFootprint(columns: columns, rows: rows)
    }
}
