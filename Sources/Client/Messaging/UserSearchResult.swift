/// One page of found users, in the server's order.
package struct UserSearchResult: Sendable, Equatable {
    package var users: [FoundUser]
    package var page: Int
    package var perPage: Int
    /// How many match in all (as the server counted them).
    package var totalEntries: Int

    package init(users: [FoundUser], page: Int, perPage: Int, totalEntries: Int) {
        self.users = users; self.page = page; self.perPage = perPage; self.totalEntries = totalEntries
    }

    /// Whether a later page has more.
    package var hasMore: Bool { page * perPage < totalEntries }
}
