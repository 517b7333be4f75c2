/// One cell of the screen: the glyph that starts in it (empty in the second cell
/// of a wide glyph) and its style.
package struct Cell: Hashable, Sendable {
    package var text: String
    package var style: CellStyle

    package init(_ text: String, style: CellStyle = .plain) {
        self.text = text; self.style = style
    }

    package static let blank = Cell(" ")
    /// The second column of a wide glyph.
    static let continuation = Cell("")

    package var isContinuation: Bool { text.isEmpty }
}
