/// An escape-drawn image: where it goes on the screen and what to write there.
public struct ImagePlacement: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var box: CellBox
    public var payload: [UInt8]

    public init(row: Int, column: Int, box: CellBox, payload: [UInt8]) {
        self.row = row; self.column = column; self.box = box; self.payload = payload
    }
}
