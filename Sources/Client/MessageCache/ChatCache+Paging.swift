import SQLiteStore
import ChatIdentifiers

/// History a page at a time from a position, for a view that scrolls through a
/// dialog: by date and then id, so messages sent in the same second are neither
/// skipped nor repeated at a page's edge. Served by the `(dialog_id, date_sent, id)` index.
extension ChatCache {
    /// Up to `limit` messages just before `(dateSent, id)`, oldest first.
    package func messages(dialogID: DialogID, beforeDate dateSent: Int, id: String, limit: Int) throws(MessageCacheError) -> [CachedMessage] {
        try wrapping {
            let limit = try Self.checkedLimit(limit)
            return try database.records(
                """
                SELECT \(Self.messageColumns) FROM messages m
                WHERE m.dialog_id = ?1 AND (m.date_sent, m.id) < (?2, ?3)
                ORDER BY m.date_sent DESC, m.id DESC LIMIT ?4
                """,
                [.text(dialogID.rawValue), .integer(Int64(dateSent)), .text(id), .integer(Int64(limit))], Self.message
            ).reversed()
        }
    }

    /// Up to `limit` messages just after `(dateSent, id)`, oldest first.
    package func messages(dialogID: DialogID, afterDate dateSent: Int, id: String, limit: Int) throws(MessageCacheError) -> [CachedMessage] {
        try wrapping {
            let limit = try Self.checkedLimit(limit)
            return try database.records(
                """
                SELECT \(Self.messageColumns) FROM messages m
                WHERE m.dialog_id = ?1 AND (m.date_sent, m.id) > (?2, ?3)
                ORDER BY m.date_sent, m.id LIMIT ?4
                """,
                [.text(dialogID.rawValue), .integer(Int64(dateSent)), .text(id), .integer(Int64(limit))], Self.message)
        }
    }

    /// How many of a dialog's cached messages were sent in the second `dateSent`
    /// (a server pages by whole seconds: this many are skipped to get before them).
    package func messageCount(dialogID: DialogID, dateSent: Int) throws(MessageCacheError) -> Int {
        try wrapping {
            try database.queryFirst("SELECT count(*) FROM messages WHERE dialog_id = ?1 AND date_sent = ?2",
                                    [.text(dialogID.rawValue), .integer(Int64(dateSent))]) { $0.int(0) } ?? 0
        }
    }

    /// The newest message of a dialog the cache has.
    package func newestMessage(dialogID: DialogID) throws(MessageCacheError) -> CachedMessage? {
        try wrapping {
            try database.firstRecord(
                "SELECT \(Self.messageColumns) FROM messages m WHERE m.dialog_id = ?1 ORDER BY m.date_sent DESC, m.id DESC LIMIT 1",
                [.text(dialogID.rawValue)], Self.message)
        }
    }
}

extension ChatCache {
    /// A number that changes whenever another connection (another process, another thread
    /// of this one) committed to the cache (`PRAGMA data_version`): a view that follows a
    /// dialog reads the cache again only when it moved.
    package func changeCount() throws(MessageCacheError) -> Int {
        try wrapping { try database.queryFirst("PRAGMA data_version", []) { $0.int(0) } ?? 0 }
    }
}
