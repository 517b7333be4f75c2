/// One terminal cell of a symbol preview: a one-column character and its colours,
/// nil for the terminal's default (`NO_COLOR`, or a transparent pixel).
public struct PreviewCell: Sendable, Hashable {
    public let character: Character
    public let foreground: PreviewColor?
    public let background: PreviewColor?

    public init(_ character: Character, foreground: PreviewColor? = nil, background: PreviewColor? = nil) {
        self.character = character; self.foreground = foreground; self.background = background
    }
}
