/// One page of `GET /chat/Message.json`.
public struct QBMessagePage: Sendable, Equatable {
    public var skip: Int
    /// The `limit` the server applied (it may cap the one asked for).
    public var limit: Int
    /// `total_entries`, which history answers usually leave out.
    public var totalEntries: Int?
    /// Newest first (`sort_desc=date_sent`).
    public var items: [QBMessage]
    public init(skip: Int, limit: Int, totalEntries: Int? = nil, items: [QBMessage]) {
        self.skip = skip; self.limit = limit; self.totalEntries = totalEntries; self.items = items
    }
}
