import ChatIdentifiers

/// The dialogs screen: the list, the one selected, and the filter typed after `/`.
package struct DialogPicker: Hashable, Sendable {
    package var all: [DialogSummary] = []
    /// Nil when not filtering; the text typed after `/` otherwise.
    package var filter: String?
    /// The selected dialog's id.
    package var selectedID: DialogID?
    /// The first row shown.
    package var top = 0

    package init() {}

    /// The dialogs that match the filter (a case-insensitive part of the title).
    package var shown: [DialogSummary] {
        guard let filter, !filter.isEmpty else { return all }
        let needle = filter.lowercased()
        return all.filter { $0.title.lowercased().contains(needle) }
    }

    package var selectedIndex: Int? {
        let shown = self.shown
        guard !shown.isEmpty else { return nil }
        return shown.firstIndex { $0.id == selectedID } ?? 0
    }
}
