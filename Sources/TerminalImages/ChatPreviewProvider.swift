import ChatView
import Diagnostics

/// The chat view's image previews (`ImagePreviewProvider`): files decoded by a
/// `PreviewLoader` in the background, drawn by `PreviewRenderer` in the style
/// `--images` asks for. Lives on the terminal's thread, as the renderer that asks
/// it does; `onReady` runs on the loader's queue when an image has been decoded
/// (or has failed), for the edge to redraw: until then the image has no box.
package final class ChatPreviewProvider: ImagePreviewProvider {
    private let loader: PreviewLoader
    private let terminal: TerminalTraits
    private let depth: ColorDepth
    private let symbolSet: SymbolSet

    private struct Drawn: Hashable {
        let path: String, columns: Int, rows: Int, mode: ImageMode
    }
    /// The renderer asks again for every frame; drawing is done once.
    private var drawn: [Drawn: ImagePreview?] = [:]
    private static let drawnKept = 64

    /// `profile`: the chat view's, whose cells hold palette colours, so symbols are
    /// drawn in as many as it has (0, 8, 16 or 256) and in Unicode only if it uses it.
    package init(terminal: TerminalTraits, profile: RenderProfile, limits: ImageLimits = .standard,
                onReady: @escaping @Sendable (String) -> Void) {
        self.terminal = terminal
        depth = profile.colors >= 256 ? .palette256 : profile.colors >= 16 ? .palette16 : profile.colors >= 8 ? .palette8 : .none
        symbolSet = profile.unicode ? .unicode : .ascii
        loader = PreviewLoader(limits: limits, onFinished: onReady)
    }

    /// What `mode` means on this terminal.
    package func style(for mode: ImageMode) -> PreviewStyle {
        switch mode {
        case .none: return .none
        case .sixel: return .sixel
        case .kitty: return .kitty
        case .symbols: return .symbols(depth, symbolSet)
        case .auto:
            if case .symbols = PreviewStyle.automatic(for: terminal) { return .symbols(depth, symbolSet) }
            return .automatic(for: terminal)
        }
    }

    package func box(forImageAt path: String, maxColumns: Int, maxRows: Int, mode: ImageMode) -> CellBox? {
        guard style(for: mode) != .none, case .ready(let image) = loader.state(ofImageAt: path) else { return nil }
        let footprint = CellFootprint.fitting(imageWidth: image.width, imageHeight: image.height,
                                              in: CellFootprint(columns: maxColumns, rows: maxRows), cell: terminal.cellSize ?? .assumed)
        return footprint.isEmpty ? nil : CellBox(columns: footprint.columns, rows: footprint.rows)
    }

    package func preview(ofImageAt path: String, box: CellBox, mode: ImageMode) -> ImagePreview? {
        let key = Drawn(path: path, columns: box.columns, rows: box.rows, mode: mode)
        if let known = drawn[key] { return known }
        guard case .ready(let image) = loader.state(ofImageAt: path) else { return nil }
        let preview = draw(image, in: CellFootprint(columns: box.columns, rows: box.rows), style: style(for: mode))
        if drawn.count >= Self.drawnKept { drawn.removeAll() }
        drawn[key] = preview
        return preview
    }

    /// Drops what was decoded and drawn from `path` (its file changed).
    package func forget(_ path: String) {
        loader.forget(path)
        drawn = drawn.filter { $0.key.path != path }
    }

    private func draw(_ image: DecodedImage, in footprint: CellFootprint, style: PreviewStyle) -> ImagePreview? {
        guard !footprint.isEmpty else { return nil }
        do throws(Failure) {
            switch style {
            case .none:
                return nil
            case .symbols(let depth, let symbols):
                let grid = try PreviewRenderer.symbols(image, footprint: footprint, depth: depth, symbols: symbols)
                return .cells(grid.rows.map { row in
                    row.map { Cell(String($0.character), style: CellStyle(foreground: Self.index($0.foreground), background: Self.index($0.background))) }
                })
            case .sixel, .kitty:
                let payload = try PreviewRenderer.pixels(image, footprint: footprint, cell: terminal.cellSize ?? .assumed,
                                                         protocol: style == .kitty ? .kitty : .sixel)
                return .escape(payload.bytes)
            }
        } catch {
            return nil
        }
    }

    /// A palette colour as the chat view's cells hold it (symbols are never drawn in true colour here).
    private static func index(_ color: PreviewColor?) -> UInt8? {
        if case .palette(let index)? = color { index } else { nil }
    }
}

@available(*, unavailable)
extension ChatPreviewProvider: Sendable {}
