/// One page of `GET /users.json`.
public struct QBUserPage: Sendable, Equatable {
    public var currentPage: Int
    public var perPage: Int
    public var totalEntries: Int
    public var users: [QBUser]
    public init(currentPage: Int, perPage: Int, totalEntries: Int, users: [QBUser]) {
        self.currentPage = currentPage; self.perPage = perPage; self.totalEntries = totalEntries; self.users = users
    }
}
