import Diagnostics

/// Draws image files off the caller's thread: each file decoded by a `PreviewLoader`, which
/// keeps the recent ones, and drawn by `PreviewRenderer` on the loader's queue, as large as
/// fits in the room asked for, in the cells of `terminal`.
package final class PreviewDrawer: Sendable {
    /// A drawn picture; nil when the style draws none; or why there is none.
    package typealias Outcome = Result<RenderedPreview?, Failure>

    package let terminal: TerminalTraits
    private let loader: PreviewLoader

    package init(terminal: TerminalTraits, limits: ImageLimits = .standard) {
        self.terminal = terminal
        loader = PreviewLoader(limits: limits)
    }

    /// Returns at once; `then` gets the outcome on the loader's queue, once for every call.
    package func draw(_ path: String, room: CellFootprint, style: PreviewStyle, then: @escaping @Sendable (Outcome) -> Void) {
        loader.load(path) { [terminal] image in
            then(Result { () throws(Failure) in try PreviewRenderer.render(image.get(), style: style, box: room, cell: terminal.cellSize) })
        }
    }
}
