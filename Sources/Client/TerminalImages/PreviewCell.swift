/// One terminal cell of a symbol preview: a one-column character and its colours,
/// nil for the terminal's default (`NO_COLOR`, or a transparent pixel).
package struct PreviewCell: Sendable, Hashable {
    package let character: Character
    package let foreground: PreviewColor?
    package let background: PreviewColor?

    package init(_ character: Character, foreground: PreviewColor? = nil, background: PreviewColor? = nil) {
        self.character = character; self.foreground = foreground; self.background = background
    }
}
