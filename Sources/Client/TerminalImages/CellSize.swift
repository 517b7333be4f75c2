/// A terminal cell's size in pixels: what turns an image's shape into columns and
/// rows, and the size of each cell of a sixel or kitty image.
package struct CellSize: Sendable, Equatable {
    package let width: Int
    package let height: Int

    package init(width: Int, height: Int) {
        self.width = max(1, width); self.height = max(1, height)
    }

    /// The usual cell when the terminal does not say: twice as high as wide.
    package static let assumed = CellSize(width: 8, height: 16)

    /// From the terminal's size (TIOCGWINSZ: `ws_col`, `ws_row`, `ws_xpixel`,
    /// `ws_ypixel`); nil when it reports no pixels, as many terminals do.
    package init?(columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        guard columns > 0, rows > 0, pixelWidth >= columns, pixelHeight >= rows else { return nil }
        self.init(width: pixelWidth / columns, height: pixelHeight / rows)
    }
}
