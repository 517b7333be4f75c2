import SQLiteStore
import ChatIdentifiers

/// Drafts (`CachedDraft`): one a dialog, kept until it is sent or emptied.
extension ChatCache {
    /// Every draft kept.
    package func drafts() throws(MessageCacheError) -> [CachedDraft] {
        try wrapping {
            try database.records("SELECT dialog_id, text, cursor FROM drafts ORDER BY dialog_id", []) { row in
                CachedDraft(dialogID: DialogID(row.string("dialog_id") ?? ""), text: row.string("text") ?? "", cursor: row.int("cursor"))
            }
        }
    }

    /// Keeps `draft` as its dialog's (one with no text removes the dialog's), at `time`.
    package func keepDraft(_ draft: CachedDraft, at time: Int) throws(MessageCacheError) {
        try wrapping {
            try database.transaction {
                if draft.text.isEmpty {
                    _ = try database.run("DELETE FROM drafts WHERE dialog_id = ?", [.text(draft.dialogID.rawValue)])
                } else {
                    _ = try database.run(
                        """
                        INSERT INTO drafts (dialog_id, text, cursor, updated_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (dialog_id) DO UPDATE SET text = excluded.text, cursor = excluded.cursor, updated_at = excluded.updated_at
                        """,
                        [.text(draft.dialogID.rawValue), .text(draft.text), .integer(Int64(draft.cursor)), .integer(Int64(time))])
                }
            }
        }
    }
}
