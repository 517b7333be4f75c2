/// The dialogs screen: the list, the one selected, and the filter typed after `/`.
public struct DialogPicker: Hashable, Sendable {
    public var all: [DialogSummary] = []
    /// Nil when not filtering; the text typed after `/` otherwise.
    public var filter: String?
    /// The selected dialog's id.
    public var selectedID: String?
    /// The first row shown.
    public var top = 0

    public init() {}

    /// The dialogs that match the filter (a case-insensitive part of the title).
    public var shown: [DialogSummary] {
        guard let filter, !filter.isEmpty else { return all }
        let needle = filter.lowercased()
        return all.filter { $0.title.lowercased().contains(needle) }
    }

    public var selectedIndex: Int? {
        let shown = self.shown
        guard !shown.isEmpty else { return nil }
        return shown.firstIndex { $0.id == selectedID } ?? 0
    }
}
