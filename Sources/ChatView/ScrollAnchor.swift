/// A scroll position that survives messages arriving and the screen resizing: the
/// message at the bottom of the view, and how many of its rows are below the view.
public struct ScrollAnchor: Hashable, Sendable {
    public var id: String
    public var hiddenRows: Int

    public init(id: String, hiddenRows: Int) {
        self.id = id; self.hiddenRows = hiddenRows
    }
}
