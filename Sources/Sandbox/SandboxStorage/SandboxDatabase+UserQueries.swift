// The users list's filters and order (`filter[]=string login in a,b`, `order=asc string login`)
// and the look-ups by social id (docs/protocol.md §3, "The reference's operations").
internal import SQLiteStore

/// An id a user may have on another service, each with a look-up of its own.
package enum SocialIdKind: String, CaseIterable, Sendable {
    case facebook = "facebook_id"
    case twitter = "twitter_id"
    case twitterDigits = "twitter_digits_id"
}

extension SandboxDatabase {
    /// The fields of the user object the list filters and orders by, as columns of `users`.
    package static let userFields: [String: FilterableField] = [
        "id": FilterableField(column: "id", kind: .integer),
        "login": FilterableField(column: "login", kind: .text),
        "full_name": FilterableField(column: "full_name", kind: .text),
        "email": FilterableField(column: "email", kind: .text),
        "phone": FilterableField(column: "phone", kind: .text),
        "website": FilterableField(column: "website", kind: .text),
        "custom_data": FilterableField(column: "custom_data", kind: .text),
        "external_user_id": FilterableField(column: "external_user_id", kind: .integer),
        "blob_id": FilterableField(column: "blob_id", kind: .integer),
        "facebook_id": FilterableField(column: "facebook_id", kind: .text),
        "twitter_id": FilterableField(column: "twitter_id", kind: .text),
        "twitter_digits_id": FilterableField(column: "twitter_digits_id", kind: .text),
        "created_at": FilterableField(column: "created_at", kind: .date),
        "updated_at": FilterableField(column: "updated_at", kind: .date),
        "last_request_at": FilterableField(column: "last_request_at", kind: .date),
    ]

    /// One page of the users that pass every filter, ordered by `sort` then id; with the total count.
    package func users(filters: [RecordFilter], sort: RecordSort, page: Int, perPage: Int) throws -> (total: Int, items: [UserRecord]) {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        for filter in filters {
            let (sql, args) = filter.sql
            conditions.append(sql)
            arguments += args
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total = try db.queryFirst("SELECT COUNT(*) FROM users \(whereClause)", arguments) { $0.int(0) } ?? 0
        let direction = sort.descending ? "DESC" : "ASC"
        let users = try db.query(
            "SELECT \(Self.userColumns) FROM users \(whereClause) ORDER BY \(sort.column) \(direction), id \(direction) LIMIT ? OFFSET ?",
            arguments + [.int(perPage), .int((page - 1) * perPage)], Self.user(from:))
        return (total, users)
    }

    /// The (first) user with that id on another service.
    package func user(_ kind: SocialIdKind, _ value: String) throws -> UserRecord? {
        try db.queryFirst("SELECT \(Self.userColumns) FROM users WHERE \(kind.rawValue) = ? ORDER BY id LIMIT 1",
                          [.text(value)], Self.user(from:))
    }
}
