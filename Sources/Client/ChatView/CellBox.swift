/// A box of whole cells.
package struct CellBox: Hashable, Sendable {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns; self.rows = rows
    }
}
