/// One page of `GET /users.json`.
package struct QBUserPage: Sendable, Equatable {
    package var currentPage: Int
    package var perPage: Int
    package var totalEntries: Int
    package var users: [QBUser]
    package init(currentPage: Int, perPage: Int, totalEntries: Int, users: [QBUser]) {
        self.currentPage = currentPage; self.perPage = perPage; self.totalEntries = totalEntries; self.users = users
    }
}
