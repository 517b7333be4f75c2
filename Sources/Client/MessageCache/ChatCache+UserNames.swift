import SQLiteStore

/// Users by the names a person types for them: one query for a whole
/// dialog list, and one user by email address.
extension ChatCache {
    /// What `userNames` reads: a user's names and the email in its JSON.
    static let userNamesColumns =
        "id, login, full_name, CASE WHEN json_valid(raw_json) THEN json_extract(raw_json, '$.email') END AS email"

    static func userNames(_ row: Row) -> UserNames {
        UserNames(id: row.int("id"), login: row.string("login") ?? "", fullName: row.string("full_name"), email: row.string("email"))
    }

    /// The names of the cached users among `ids`; ids the cache does not hold are left out.
    package func userNames(ids: [Int]) throws(MessageCacheError) -> [UserNames] {
        guard !ids.isEmpty else { return [] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        return try wrapping {
            try database.records(
                "SELECT \(Self.userNamesColumns) FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
                [.text(list)], Self.userNames)
        }
    }

    /// The user whose email address is `email`, ignoring ASCII case as mail servers do;
    /// the lowest id if several. (A user who has no login is cached under the address.)
    package func user(email: String) throws(MessageCacheError) -> CachedUser? {
        try wrapping {
            try database.firstRecord(
                """
                SELECT id, login, full_name, raw_json FROM users
                WHERE lower(login) = lower(?1)
                   OR lower(CASE WHEN json_valid(raw_json) THEN json_extract(raw_json, '$.email') END) = lower(?1)
                ORDER BY id LIMIT 1
                """,
                [.text(email)], Self.user)
        }
    }
}
