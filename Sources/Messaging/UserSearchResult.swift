/// One page of found users, in the server's order.
public struct UserSearchResult: Sendable, Equatable {
    public var users: [FoundUser]
    public var page: Int
    public var perPage: Int
    /// How many match in all (as the server counted them).
    public var totalEntries: Int

    public init(users: [FoundUser], page: Int, perPage: Int, totalEntries: Int) {
        self.users = users; self.page = page; self.perPage = perPage; self.totalEntries = totalEntries
    }

    /// Whether a later page has more.
    public var hasMore: Bool { page * perPage < totalEntries }
}
