import SQLiteStore
import ChatIdentifiers

extension ChatCache {
    /// Forgets a dialog the user left or deleted: the dialog, its occupants, its
    /// messages (and so their search entries) and its history cursor, in one
    /// transaction. Messages waiting in the outbox stay there: they are the
    /// user's words, and only `outbox flush` may decide they cannot be delivered.
    /// Returns whether the dialog was cached.
    @discardableResult
    package func removeDialog(id: DialogID) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.transaction {
                try database.run("DELETE FROM messages WHERE dialog_id = ?", [.text(id.rawValue)])
                try database.run("DELETE FROM dialog_occupants WHERE dialog_id = ?", [.text(id.rawValue)])
                try database.run("DELETE FROM sync_cursors WHERE name = ?", [.text(Self.historyCursor(id))])
                return try database.run("DELETE FROM dialogs WHERE id = ?", [.text(id.rawValue)]) > 0
            }
        }
    }

    /// Forgets deleted messages (the search index follows by trigger). Returns how
    /// many were cached.
    @discardableResult
    package func removeMessages(ids: [String]) throws(MessageCacheError) -> Int {
        guard !ids.isEmpty else { return 0 }
        return try wrapping {
            try database.transaction {
                try ids.reduce(0) { $0 + (try database.run("DELETE FROM messages WHERE id = ?", [.text($1)])) }
            }
        }
    }
}
