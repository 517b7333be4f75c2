import SQLiteStore

extension ChatCache {
    /// Replaces whom the user blocks with `userIDs`, as the server's list had them when read.
    package func setBlockedUsers(_ userIDs: [Int]) throws(MessageCacheError) {
        try wrapping {
            try database.transaction {
                try database.run("DELETE FROM blocked_users")
                for id in Set(userIDs) { try database.run("INSERT INTO blocked_users (user_id) VALUES (?)", [.integer(Int64(id))]) }
            }
        }
    }

    /// Whom the user blocked when the list was last read.
    package func blockedUsers() throws(MessageCacheError) -> Set<Int> {
        try wrapping { Set(try database.query("SELECT user_id FROM blocked_users") { $0.int(0) }) }
    }
}
