/// A scroll position that survives messages arriving and the screen resizing: the
/// message at the bottom of the view, and how many of its rows are below the view.
package struct ScrollAnchor: Hashable, Sendable {
    package var id: String
    package var hiddenRows: Int

    package init(id: String, hiddenRows: Int) {
        self.id = id; self.hiddenRows = hiddenRows
    }
}
