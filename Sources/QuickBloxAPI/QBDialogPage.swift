/// One page of `GET /chat/Dialog.json`.
public struct QBDialogPage: Sendable, Equatable {
    /// `total_entries`; when the server omitted it, `skip + items.count`.
    public var totalEntries: Int
    public var skip: Int
    /// The `limit` the server applied (it may cap the one asked for).
    public var limit: Int
    public var items: [QBDialog]
    public init(totalEntries: Int, skip: Int, limit: Int, items: [QBDialog]) {
        self.totalEntries = totalEntries; self.skip = skip; self.limit = limit; self.items = items
    }
}
