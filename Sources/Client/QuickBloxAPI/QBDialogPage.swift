/// One page of `GET /chat/Dialog.json`.
package struct QBDialogPage: Sendable, Equatable {
    /// `total_entries`; when the server omitted it, `skip + items.count`.
    package var totalEntries: Int
    package var skip: Int
    /// The `limit` the server applied (it may cap the one asked for).
    package var limit: Int
    package var items: [QBDialog]
    package init(totalEntries: Int, skip: Int, limit: Int, items: [QBDialog]) {
        self.totalEntries = totalEntries; self.skip = skip; self.limit = limit; self.items = items
    }
}
