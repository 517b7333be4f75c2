import ChatView
import Diagnostics
import TerminalImages

/// Carries out the chat view's image previews (`ScreenEffect.drawPreview`) off the
/// terminal's thread: a `PreviewDrawer` draws the file in the style the request's profile
/// asks for; `report` gets the result on the drawer's queue, a picture as the view's cells
/// or why there is none, for the edge to post as `ScreenEvent.previewDrawn`.
final class ChatPreviewDrawer: Sendable {
    private let drawer: PreviewDrawer
    private let report: @Sendable (PreviewRequest, ImagePreview) -> Void

    init(terminal: TerminalTraits, limits: ImageLimits = .standard,
         report: @escaping @Sendable (PreviewRequest, ImagePreview) -> Void) {
        drawer = PreviewDrawer(terminal: terminal, limits: limits)
        self.report = report
    }

    /// Returns at once; every request is reported once.
    func draw(_ request: PreviewRequest) {
        let room = CellFootprint(columns: request.room.columns, rows: request.room.rows)
        drawer.draw(request.path, room: room, style: Self.style(for: request.profile, on: drawer.terminal)) { [report] outcome in
            report(request, Self.preview(outcome))
        }
    }

    /// What `--images` means on `terminal` for a view of `profile`, whose cells hold
    /// palette colours: symbols in as many as it has (0, 8, 16 or 256), in Unicode
    /// only if it uses it.
    static func style(for profile: RenderProfile, on terminal: TerminalTraits) -> PreviewStyle {
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

    /// A drawing as the chat view's grid holds it.
    static func preview(_ outcome: PreviewDrawer.Outcome) -> ImagePreview {
        let drawn: RenderedPreview?
        switch outcome {
        case .success(let preview): drawn = preview
        case .failure(let error): return .unavailable(reason: error.description)
        }
        guard let drawn else { return .unavailable(reason: "this terminal shows no pictures") }
        let box = CellBox(columns: drawn.footprint.columns, rows: drawn.footprint.rows)
        switch drawn {
        case .symbols(let grid):
            return .cells(grid.rows.map { row in
                row.map { Cell(String($0.character), style: CellStyle(foreground: index($0.foreground), background: index($0.background))) }
            }, box: box)
        case .pixels(let payload):
            return .escape(payload.bytes, box: box)
        }
    }

    /// A palette colour as the chat view's cells hold it (symbols are never drawn in true colour here).
    private static func index(_ color: PreviewColor?) -> UInt8? {
        if case .palette(let index)? = color { index } else { nil }
    }
}
