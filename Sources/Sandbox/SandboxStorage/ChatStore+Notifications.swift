// Per-user notification settings of a dialog (docs/protocol.md §5, "Notification settings").
internal import SQLiteStore

extension ChatStore {
    /// Whether `userId` is notified of `dialogId`: yes unless they muted it.
    package func notificationsEnabled(dialogId: String, userId: Int) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM dialog_muted WHERE dialog_id = ? AND user_id = ?",
                          [.text(dialogId), .int(userId)]) { _ in true } == nil
    }

    /// Mutes (`enabled` false) or unmutes `dialogId` for `userId`; either is idempotent.
    package func setNotificationsEnabled(_ enabled: Bool, dialogId: String, userId: Int) throws {
        if enabled {
            try db.run("DELETE FROM dialog_muted WHERE dialog_id = ? AND user_id = ?", [.text(dialogId), .int(userId)])
        } else {
            try db.run("INSERT OR IGNORE INTO dialog_muted (dialog_id, user_id) VALUES (?, ?)", [.text(dialogId), .int(userId)])
        }
    }
}
