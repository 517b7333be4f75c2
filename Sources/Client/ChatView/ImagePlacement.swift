/// An escape-drawn image: where it goes on the screen and what to write there.
package struct ImagePlacement: Hashable, Sendable {
    package var row: Int
    package var column: Int
    package var box: CellBox
    package var payload: [UInt8]

    package init(row: Int, column: Int, box: CellBox, payload: [UInt8]) {
        self.row = row; self.column = column; self.box = box; self.payload = payload
    }
}
