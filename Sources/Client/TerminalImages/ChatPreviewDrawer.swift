import ChatView
import Diagnostics

/// Draws the chat view's image previews (`ScreenEffect.drawPreview`) off the
/// terminal's thread: the file decoded by a `PreviewLoader`, which keeps the recent
/// ones, and drawn by `PreviewRenderer` on the loader's queue in the style the
/// request's profile asks for; `report` gets the result there, a picture or why
/// there is none, for the edge to post as `ScreenEvent.previewDrawn`.
package final class ChatPreviewDrawer: Sendable {
    private let loader: PreviewLoader
    private let terminal: TerminalTraits
    private let report: @Sendable (PreviewRequest, ImagePreview) -> Void

    package init(terminal: TerminalTraits, limits: ImageLimits = .standard,
                report: @escaping @Sendable (PreviewRequest, ImagePreview) -> Void) {
        self.terminal = terminal; self.report = report
        loader = PreviewLoader(limits: limits)
    }

    /// Returns at once; every request is reported once.
    package func draw(_ request: PreviewRequest) {
        loader.load(request.path) { [terminal, report] image in
            report(request, Self.preview(image, for: request, on: terminal))
        }
    }

    /// What `--images` means on `terminal` for a view of `profile`, whose cells hold
    /// palette colours: symbols in as many as it has (0, 8, 16 or 256), in Unicode
    /// only if it uses it.
    package static func style(for profile: RenderProfile, on terminal: TerminalTraits) -> PreviewStyle {
        let depth: ColorDepth = profile.colors >= 256 ? .palette256 : profile.colors >= 16 ? .palette16 : profile.colors >= 8 ? .palette8 : .none
        let symbols = PreviewStyle.symbols(depth, profile.unicode ? .unicode : .ascii)
        switch profile.images {
        case .none: return .none
        case .sixel: return .sixel
        case .kitty: return .kitty
        case .symbols: return symbols
        case .auto:
            let chosen = PreviewStyle.automatic(for: terminal)
            if case .symbols = chosen { return symbols }
            return chosen
        }
    }

    /// `image` drawn as large as fits in the request's room, for the chat view's grid.
    static func preview(_ image: PreviewLoader.Outcome, for request: PreviewRequest, on terminal: TerminalTraits) -> ImagePreview {
        do throws(Failure) {
            let room = CellFootprint(columns: request.room.columns, rows: request.room.rows)
            guard let drawn = try PreviewRenderer.render(image.get(), style: style(for: request.profile, on: terminal), box: room,
                                                         cell: terminal.cellSize) else {
                return .unavailable(reason: "this terminal shows no pictures")
            }
            let box = CellBox(columns: drawn.footprint.columns, rows: drawn.footprint.rows)
            switch drawn {
            case .symbols(let grid):
                return .cells(grid.rows.map { row in
                    row.map { Cell(String($0.character), style: CellStyle(foreground: index($0.foreground), background: index($0.background))) }
                }, box: box)
            case .pixels(let payload):
                return .escape(payload.bytes, box: box)
            }
        } catch {
            return .unavailable(reason: error.description)
        }
    }

    /// A palette colour as the chat view's cells hold it (symbols are never drawn in true colour here).
    private static func index(_ color: PreviewColor?) -> UInt8? {
        if case .palette(let index)? = color { index } else { nil }
    }
}
