/// A drawn preview: rows of styled cells that the renderer copies into the grid
/// (Unicode symbols in colour), or bytes the terminal edge writes itself at the
/// box's top-left cell after the text (sixel, kitty graphics), over cells the
/// renderer leaves blank.
package enum ImagePreview: Hashable, Sendable {
    case cells([[Cell]])
    case escape([UInt8])
}
