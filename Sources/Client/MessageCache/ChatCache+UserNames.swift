import SQLiteStore

/// Users by the names a person types for them (issue 22): one query for a whole
/// dialog list, and one user by email address.
extension ChatCache {
    /// The names of the cached users among `ids`; ids the cache does not hold are left out.
    package func userNames(ids: [Int]) throws(MessageCacheError) -> [UserNames] {
        guard !ids.isEmpty else { return [] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        return try wrapping {
            try database.query(
                """
                SELECT id, login, full_name, CASE WHEN json_valid(raw_json) THEN json_extract(raw_json, '$.email') END
                FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id
                """,
                [.text(list)]) { row in
                UserNames(id: row.int(0), login: row.string(1) ?? "", fullName: row.string(2), email: row.string(3))
            }
        }
    }

    /// The user whose email address is `email`, ignoring ASCII case as mail servers do;
    /// the lowest id if several. (A user who has no login is cached under the address.)
    package func user(email: String) throws(MessageCacheError) -> CachedUser? {
        try wrapping {
            try database.queryFirst(
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
