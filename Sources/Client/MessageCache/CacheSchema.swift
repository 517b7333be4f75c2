import SQLiteStore

/// The cache's schema as an ordered list of migrations. Append, never edit.
///
/// Full-text search uses an external-content FTS5 table over `messages.text`
/// and `messages.attachment_names`, kept in step by triggers: `snippet()` needs
/// the text, which a contentless index cannot give back, and external content
/// avoids storing it twice.
/// `dialog_id` is indexed too (weight 0 in bm25) so a search within one
/// dialog intersects posting lists instead of checking every match's row.
package enum CacheSchema {
    /// Also used by `ChatCache.importMessages`, which drops it for a bulk load
    /// and rebuilds the index; keep it equal to the latest migration's trigger.
    static let ftsInsertTriggerSQL = """
        CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts (rowid, text, dialog_id, attachment_names)
            VALUES (new.seq, new.text, new.dialog_id, new.attachment_names);
        END
        """

    /// The names in a JSON array of attachment objects (the `attachments` column, or
    /// the parameter `json` that fills it), separated by spaces: what search finds
    /// attachments by. Empty for '' or anything that is not JSON.
    static func attachmentNamesSQL(_ json: String) -> String {
        """
        CASE WHEN \(json) = '' OR NOT json_valid(\(json)) THEN '' ELSE coalesce((
            SELECT group_concat(json_extract(value, '$.name'), ' ') FROM json_each(\(json))
            WHERE type = 'object' AND json_type(value, '$.name') IN ('text', 'integer', 'real')), '') END
        """
    }

    package static let migrator = Migrator([
        Migration("1 dialogs users messages outbox cursors", sql: """
            CREATE TABLE dialogs (
                id TEXT PRIMARY KEY NOT NULL,
                type INTEGER NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                occupant_ids TEXT NOT NULL DEFAULT '',
                last_message TEXT,
                last_message_date_sent INTEGER,
                unread_count INTEGER NOT NULL DEFAULT 0,
                updated_at INTEGER NOT NULL DEFAULT 0,
                raw_json TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX dialogs_by_last_message ON dialogs (last_message_date_sent, id);
            CREATE INDEX dialogs_by_type ON dialogs (type, last_message_date_sent, id);
            CREATE INDEX dialogs_by_name ON dialogs (name);

            CREATE TABLE dialog_occupants (
                user_id INTEGER NOT NULL,
                dialog_id TEXT NOT NULL,
                PRIMARY KEY (user_id, dialog_id)
            ) WITHOUT ROWID;
            CREATE INDEX dialog_occupants_by_dialog ON dialog_occupants (dialog_id);

            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                login TEXT NOT NULL,
                full_name TEXT,
                raw_json TEXT NOT NULL
            );
            CREATE INDEX users_by_login ON users (login);

            CREATE TABLE messages (
                seq INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                dialog_id TEXT NOT NULL,
                sender_id INTEGER NOT NULL,
                recipient_id INTEGER NOT NULL DEFAULT 0,
                date_sent INTEGER NOT NULL,
                text TEXT NOT NULL DEFAULT '',
                raw_json TEXT NOT NULL
            );
            CREATE INDEX messages_by_dialog_date ON messages (dialog_id, date_sent, id);

            CREATE VIRTUAL TABLE messages_fts USING fts5 (
                text, dialog_id, content = 'messages', content_rowid = 'seq',
                tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
                INSERT INTO messages_fts (rowid, text, dialog_id) VALUES (new.seq, new.text, new.dialog_id);
            END;
            CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
                INSERT INTO messages_fts (messages_fts, rowid, text, dialog_id)
                VALUES ('delete', old.seq, old.text, old.dialog_id);
            END;
            CREATE TRIGGER messages_fts_update AFTER UPDATE OF text, dialog_id ON messages
            WHEN old.text IS NOT new.text OR old.dialog_id IS NOT new.dialog_id BEGIN
                INSERT INTO messages_fts (messages_fts, rowid, text, dialog_id)
                VALUES ('delete', old.seq, old.text, old.dialog_id);
                INSERT INTO messages_fts (rowid, text, dialog_id) VALUES (new.seq, new.text, new.dialog_id);
            END;

            CREATE TABLE outbox (
                seq INTEGER PRIMARY KEY,
                client_message_id TEXT NOT NULL UNIQUE,
                dialog_id TEXT NOT NULL,
                text TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                claimed_by INTEGER,
                claimed_at INTEGER
            );
            CREATE INDEX outbox_by_age ON outbox (created_at, seq);

            CREATE TABLE sync_cursors (
                name TEXT PRIMARY KEY NOT NULL,
                value INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        // Who has each message and who read it (docs/protocol.md §6–7): the
        // server's lists, then what markers add. Comma-separated user ids, in
        // the order learnt; filled from the JSON already cached. A list given
        // as text ("7,8") is kept as it is; anything else not a number is dropped.
        Migration("2 message delivered and read ids", sql: """
            ALTER TABLE messages ADD COLUMN delivered_ids TEXT NOT NULL DEFAULT '';
            ALTER TABLE messages ADD COLUMN read_ids TEXT NOT NULL DEFAULT '';
            UPDATE messages SET
                delivered_ids = coalesce((\(idListSQL("delivered_ids"))), ''),
                read_ids = coalesce((\(idListSQL("read_ids"))), '')
            WHERE json_valid(raw_json);
            """),
        // Attachments (docs/protocol.md §8) kept with the message, for display without
        // reading its whole JSON: the attachment objects as a JSON array ('' for none),
        // filled from the JSON already cached (`attachments` an array, or an object
        // keyed "0", "1", …). Their names join the search index as a column of their
        // own, so the index is made again with it. An outbox entry keeps its attachments
        // to send (the same array form).
        Migration("3 message and outbox attachments", sql: """
            ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '';
            ALTER TABLE messages ADD COLUMN attachment_names TEXT NOT NULL DEFAULT '';
            ALTER TABLE outbox ADD COLUMN attachments TEXT NOT NULL DEFAULT '';
            UPDATE messages SET attachments = (
                SELECT json_group_array(json(value)) FROM (
                    SELECT value FROM json_each(messages.raw_json, '$.attachments') WHERE type = 'object'
                    ORDER BY CAST(key AS INTEGER), key))
            WHERE instr(raw_json, '"attachments"') > 0 AND json_valid(raw_json)
              AND json_type(raw_json, '$.attachments') IN ('array', 'object')
              AND EXISTS (SELECT 1 FROM json_each(messages.raw_json, '$.attachments') WHERE type = 'object');
            UPDATE messages SET attachment_names = \(attachmentNamesSQL("attachments")) WHERE attachments <> '';

            DROP TRIGGER messages_fts_insert;
            DROP TRIGGER messages_fts_delete;
            DROP TRIGGER messages_fts_update;
            DROP TABLE messages_fts;
            CREATE VIRTUAL TABLE messages_fts USING fts5 (
                text, dialog_id, attachment_names, content = 'messages', content_rowid = 'seq',
                tokenize = 'unicode61 remove_diacritics 2'
            );
            INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
            \(ftsInsertTriggerSQL);
            CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
                INSERT INTO messages_fts (messages_fts, rowid, text, dialog_id, attachment_names)
                VALUES ('delete', old.seq, old.text, old.dialog_id, old.attachment_names);
            END;
            CREATE TRIGGER messages_fts_update AFTER UPDATE OF text, dialog_id, attachment_names ON messages
            WHEN old.text IS NOT new.text OR old.dialog_id IS NOT new.dialog_id OR old.attachment_names IS NOT new.attachment_names
            BEGIN
                INSERT INTO messages_fts (messages_fts, rowid, text, dialog_id, attachment_names)
                VALUES ('delete', old.seq, old.text, old.dialog_id, old.attachment_names);
                INSERT INTO messages_fts (rowid, text, dialog_id, attachment_names)
                VALUES (new.seq, new.text, new.dialog_id, new.attachment_names);
            END;
            """),
        // Files an outbox entry sends (`send --attach`), one row each, written with the
        // entry before the first byte is uploaded and updated at every step, so that a
        // later process finishes them (OutboxUpload): where the bytes wait (`file`:
        // the outbox's own copy unless `keeping` is 'original'), what the file was
        // (size, modification time in ns, inode, device), and the blob made for it.
        Migration("4 outbox uploads", sql: """
            CREATE TABLE outbox_uploads (
                client_message_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                source TEXT NOT NULL,
                file TEXT NOT NULL,
                keeping TEXT NOT NULL,
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                content_type TEXT NOT NULL,
                size INTEGER NOT NULL,
                modified_at INTEGER NOT NULL,
                inode INTEGER NOT NULL,
                device INTEGER NOT NULL,
                state TEXT NOT NULL DEFAULT 'queued',
                blob_id INTEGER,
                blob_uid TEXT,
                upload_url TEXT,
                upload_expires_at INTEGER,
                PRIMARY KEY (client_message_id, position)
            ) WITHOUT ROWID;
            """),
        // Custom parameters an outbox entry is sent with (a reply's or a forward's quoted
        // originals, docs/protocol.md §6), a JSON object of strings: a queued reply is
        // still a reply after a restart.
        Migration("5 outbox custom parameters", sql: """
            ALTER TABLE outbox ADD COLUMN custom TEXT NOT NULL DEFAULT '';
            """),
        // Whether the user muted the dialog (its notification settings, docs/protocol.md
        // §5), learnt when they mute or unmute and when the setting is read; the server's dialog
        // object does not carry it, so upserting a dialog leaves it as it was.
        Migration("6 dialog muted", sql: """
            ALTER TABLE dialogs ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;
            """),
        // When a mute with `--for` ends (Unix seconds; NULL: until unmuted). QuickBlox's
        // setting has no expiry, so chatctl keeps it and unmutes once it has passed (docs/protocol.md §5).
        Migration("7 dialog muted until", sql: """
            ALTER TABLE dialogs ADD COLUMN muted_until INTEGER;
            """),
        // Lists of user ids (a message's delivered and read ids, a dialog's occupants)
        // kept as the lists they are, JSON arrays (`ChatCache.userIDList`), not comma-separated
        // text. Each list reads as it did: one of integers only becomes an array in place; any
        // other (a part that is no integer, a leading zero) is read by the reader of the old text
        // and written again, its stray parts dropped as that reader dropped them.
        Migration("8 user id lists as JSON arrays") { database in
            for (table, key, columns) in [("messages", "seq", ["delivered_ids", "read_ids"]), ("dialogs", "id", ["occupant_ids"])] {
                func integersOnly(_ column: String) -> String {
                    "\(column) NOT GLOB '*[^0-9,-]*' AND json_valid('[' || \(column) || ']')"
                }
                for column in columns {
                    let others = try database.query("SELECT \(key), \(column) FROM \(table) WHERE NOT (\(integersOnly(column)))") {
                        ($0.value(0), $0.string(1))
                    }
                    for (row, text) in others {
                        try database.run("UPDATE \(table) SET \(column) = ? WHERE \(key) = ?",
                                         [.text(ChatCache.userIDList(ChatCache.userIDs(text))), row])
                    }
                }
                // One pass over the table for all its lists (a cache can hold a million messages).
                let arrays = columns.map { "\($0) = CASE WHEN \(integersOnly($0)) THEN '[' || \($0) || ']' ELSE \($0) END" }
                try database.run("UPDATE \(table) SET \(arrays.joined(separator: ", "))")
            }
        },
        // What the chat view's user typed in a dialog and left there (ChatCache+Drafts.swift),
        // and where the cursor was: given back when the dialog opens again, in this run or the next.
        Migration("9 drafts", sql: """
            CREATE TABLE drafts (
                dialog_id TEXT PRIMARY KEY NOT NULL,
                text TEXT NOT NULL,
                cursor INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        // Whom the user blocks (their privacy list, docs/protocol.md §7), as chatctl last read or
        // changed it over chat, so that `dialogs` and the chat view can mark them without a connection.
        Migration("10 blocked users", sql: """
            CREATE TABLE blocked_users (user_id INTEGER PRIMARY KEY);
            """),
    ])

    /// The ids of the raw JSON's list `key` as comma-separated text.
    private static func idListSQL(_ key: String) -> String {
        """
        SELECT group_concat(CASE WHEN type = 'text' THEN replace(value, ' ', '') ELSE CAST(value AS INTEGER) END)
        FROM json_each(messages.raw_json, '$.\(key)') WHERE type IN ('integer', 'real', 'text')
        """
    }
}
