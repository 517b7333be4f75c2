import SQLiteStore

extension ChatCache {
    /// Records whether the user muted dialog `id` (docs/protocol.md §5, "Notification settings"),
    /// as the server confirmed it. Returns whether the dialog was cached (an uncached one is
    /// not recorded: the flag lives on the dialog's row).
    @discardableResult
    package func setDialogMuted(id: String, _ muted: Bool) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.run("UPDATE dialogs SET muted = ? WHERE id = ?", [.integer(muted ? 1 : 0), .text(id)]) > 0
        }
    }
}
