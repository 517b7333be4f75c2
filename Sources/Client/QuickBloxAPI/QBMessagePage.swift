/// One page of `GET /chat/Message.json`.
package struct QBMessagePage: Sendable, Equatable {
    package var skip: Int
    /// The `limit` the server applied (it may cap the one asked for).
    package var limit: Int
    /// `total_entries`, which history answers usually leave out.
    package var totalEntries: Int?
    /// Newest first (`sort_desc=date_sent`).
    package var items: [QBMessage]
    package init(skip: Int, limit: Int, totalEntries: Int? = nil, items: [QBMessage]) {
        self.skip = skip; self.limit = limit; self.totalEntries = totalEntries; self.items = items
    }
}
