/// A preview as the edge drew it for a `PreviewRequest` (`ScreenEvent.previewDrawn`):
/// rows of styled cells that the renderer copies into the grid (Unicode symbols in
/// colour), or bytes the terminal edge writes itself at the box's top-left cell
/// after the text (sixel, kitty graphics), over cells the renderer leaves blank; or
/// why there is none, shown in the image's cell instead.
package enum ImagePreview: Hashable, Sendable {
    /// `box.rows` rows of `box.columns` cells.
    case cells([[Cell]], box: CellBox)
    case escape([UInt8], box: CellBox)
    case unavailable(reason: String)

    /// The cells it covers; nil when there is no picture.
    package var box: CellBox? {
        switch self {
        case .cells(_, let box), .escape(_, let box): box
        case .unavailable: nil
        }
    }
}
