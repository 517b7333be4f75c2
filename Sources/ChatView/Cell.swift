/// One cell of the screen: the glyph that starts in it (empty in the second cell
/// of a wide glyph) and its style.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: CellStyle

    public init(_ text: String, style: CellStyle = .plain) {
        self.text = text; self.style = style
    }

    public static let blank = Cell(" ")
    /// The second column of a wide glyph.
    static let continuation = Cell("")

    public var isContinuation: Bool { text.isEmpty }
}
