/// One page of a listing the server pages by number (`page`, `per_page`): the users
/// (`GET /users.json` and its searches) and the push events (`GET /events.json`).
package struct QBNumberedPage<Item: Sendable & Equatable>: Sendable, Equatable {
    package var currentPage: Int
    package var perPage: Int
    package var totalEntries: Int
    package var items: [Item]
    package init(currentPage: Int, perPage: Int, totalEntries: Int, items: [Item]) {
        self.currentPage = currentPage; self.perPage = perPage; self.totalEntries = totalEntries; self.items = items
    }

    /// Whether a later page has more.
    package var hasMore: Bool { currentPage * perPage < totalEntries }
}

package typealias QBUserPage = QBNumberedPage<QBUser>
package typealias QBPushEventPage = QBNumberedPage<QBPushEvent>
