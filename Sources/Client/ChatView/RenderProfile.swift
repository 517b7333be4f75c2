/// How the screen can be drawn: Unicode (box drawing, text beyond ASCII) or not
/// (`LANG=C`), how many colours (0 with `NO_COLOR` or on a monochrome terminal),
/// and how images are previewed.
package struct RenderProfile: Hashable, Sendable {
    package var unicode: Bool
    /// 0, 8 or 256.
    package var colors: Int
    package var images: ImageMode

    package init(unicode: Bool = true, colors: Int = 256, images: ImageMode = .auto) {
        self.unicode = unicode; self.colors = colors; self.images = images
    }
}
