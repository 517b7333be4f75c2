import SQLiteStore
import ChatIdentifiers

extension ChatCache {
    /// Records whether the user muted dialog `id` (docs/protocol.md §5, "Notification settings"),
    /// as the server confirmed it; an unmuted dialog has no mute end left. Returns whether the
    /// dialog was cached (an uncached one is not recorded: the flag lives on the dialog's row).
    @discardableResult
    package func setDialogMuted(id: DialogID, _ muted: Bool) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.run("UPDATE dialogs SET muted = ?, muted_until = CASE WHEN ? THEN muted_until END WHERE id = ?",
                             [.integer(muted ? 1 : 0), .integer(muted ? 1 : 0), .text(id.rawValue)]) > 0
        }
    }

    /// Records a mute and when it ends (`dialogs mute --for`; nil: until unmuted), chatctl's own
    /// expiry of a setting the server keeps without one.
    @discardableResult
    package func setDialogMuted(id: DialogID, until: Int?) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.run("UPDATE dialogs SET muted = 1, muted_until = ? WHERE id = ?", [.optional(until), .text(id.rawValue)]) > 0
        }
    }

    /// When the first mute for a while still running ends (Unix seconds), if any.
    package func nextMuteEnd() throws(MessageCacheError) -> Int? {
        try wrapping {
            try database.queryFirst("SELECT MIN(muted_until) FROM dialogs WHERE muted = 1 AND muted_until IS NOT NULL") { $0.optionalInt(0) } ?? nil
        }
    }

    /// The muted dialogs whose mute ended at or before `now` (Unix seconds): to unmute on the server.
    package func dialogsWithMuteEnded(now: Int) throws(MessageCacheError) -> [CachedDialog] {
        try wrapping {
            try database.records("SELECT \(Self.dialogColumns) FROM dialogs d WHERE d.muted = 1 AND d.muted_until <= ? ORDER BY d.id",
                               [.integer(Int64(now))], Self.dialog)
        }
    }
}
