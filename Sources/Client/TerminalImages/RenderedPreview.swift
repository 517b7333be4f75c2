/// A preview, drawn: cells for the grid, or a picture over cells.
package enum RenderedPreview: Sendable, Equatable {
    case symbols(SymbolGrid)
    case pixels(PixelPayload)

    /// The cells it occupies.
    package var footprint: CellFootprint {
        switch self {
        case .symbols(let grid): grid.footprint
        case .pixels(let payload): payload.footprint
        }
    }
}
