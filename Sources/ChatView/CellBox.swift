/// A box of whole cells.
public struct CellBox: Hashable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns; self.rows = rows
    }
}
