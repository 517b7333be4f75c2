import SQLiteStore
import ChatIdentifiers

extension ChatCache {
    private static let dialogsCursor = "dialogs.updated_at"
    private static let dialogsSyncedCursor = "dialogs.synced_at"
    static func historyCursor(_ dialogID: DialogID) -> String { "messages.date_sent:" + dialogID.rawValue }

    /// The newest `date_sent` up to which a dialog's history is known complete.
    package func lastSyncedDateSent(dialogID: DialogID) throws(MessageCacheError) -> Int? {
        try cursor(Self.historyCursor(dialogID))
    }

    /// Moves a dialog's history cursor forward to `dateSent` (never back:
    /// concurrent processes may finish out of order).
    package func advanceLastSyncedDateSent(_ dateSent: Int, dialogID: DialogID) throws(MessageCacheError) {
        try advanceCursor(Self.historyCursor(dialogID), to: dateSent)
    }

    /// The `updated_at` (unix) of the newest dialog fetched, for `updated_at[gt]=`.
    package func dialogsUpdatedAtCursor() throws(MessageCacheError) -> Int? {
        try cursor(Self.dialogsCursor)
    }

    /// Moves the dialogs cursor forward to `updatedAt` (never back).
    package func advanceDialogsUpdatedAtCursor(_ updatedAt: Int) throws(MessageCacheError) {
        try advanceCursor(Self.dialogsCursor, to: updatedAt)
    }

    /// When (unix) the dialog list was last brought up to date from the server, nil: never.
    package func dialogsSyncedAt() throws(MessageCacheError) -> Int? {
        try cursor(Self.dialogsSyncedCursor)
    }

    /// Records a sync of the dialog list asked for at `time` (never moved back).
    package func recordDialogsSynced(at time: Int) throws(MessageCacheError) {
        try advanceCursor(Self.dialogsSyncedCursor, to: time)
    }

    private func cursor(_ name: String) throws(MessageCacheError) -> Int? {
        try wrapping { try database.queryFirst("SELECT value FROM sync_cursors WHERE name = ?", [.text(name)]) { $0.int(0) } }
    }

    private func advanceCursor(_ name: String, to value: Int) throws(MessageCacheError) {
        try wrapping {
            try database.transaction {
                try database.run(
                    """
                    INSERT INTO sync_cursors (name, value) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)
                    """,
                    [.text(name), .integer(Int64(value))])
            }
        }
    }
}
