import SQLiteStore
import ChatIdentifiers

/// The offline cache of one chatctl configuration and user: dialogs, users,
/// messages with a full-text index, the outbox and sync cursors, in one
/// SQLite file shared safely by any number of chatctl processes (WAL, a busy
/// timeout, `BEGIN IMMEDIATE` writes retried while busy, short transactions).
///
/// Not `Sendable`: each process or thread opens its own `ChatCache`.
package final class ChatCache {
    /// The connection. Only the cache's own methods touch it, so each decides
    /// its transactions; callers get batch operations instead.
    let database: Database

    /// The cache file, as given to `init`.
    package let path: String
    /// Whether this process may write (see `CacheAccess`).
    package let access: CacheAccess

    /// Opens the cache file at `path` (created `0600`; the directory must
    /// exist) and applies missing migrations. An up-to-date cache costs the
    /// open and one `PRAGMA user_version` read. A file or directory that cannot
    /// be written, or a cache from a newer chatctl, opens for reading only
    /// (`access`); a file that is not a database throws `.damaged`.
    package init(path: String, busyTimeout: Duration = .seconds(5)) throws(MessageCacheError) {
        self.path = path
        (database, access) = try Self.open(path: path, busyTimeout: busyTimeout)
    }

    /// Closes the file; idempotent. Later calls throw.
    package func close() throws(MessageCacheError) {
        try wrapping { try database.close() }
    }

    // MARK: dialogs

    /// What `dialog` reads.
    static let dialogColumns =
        "d.id, d.type, d.name, d.occupant_ids, d.last_message, d.last_message_date_sent, d.unread_count, d.updated_at, d.raw_json, d.muted, d.muted_until"
    static let dialogColumnsWithoutRawJSON =
        "d.id, d.type, d.name, d.occupant_ids, d.last_message, d.last_message_date_sent, d.unread_count, d.updated_at, '' AS raw_json, d.muted, d.muted_until"

    /// What names a dialog and orders the list, alone (`dialogsForNaming`).
    static let dialogNamingColumns = """
        d.id, d.type, d.name, d.occupant_ids, NULL AS last_message, d.last_message_date_sent, 0 AS unread_count, 0 AS updated_at,
        '' AS raw_json, 0 AS muted, NULL AS muted_until
        """

    static func dialog(_ row: Row) -> CachedDialog {
        CachedDialog(
            id: DialogID(row.string("id") ?? ""),
            type: DialogType(rawValue: row.int("type")),
            name: row.string("name") ?? "",
            occupantIDs: userIDs(row.string("occupant_ids")),
            lastMessage: row.string("last_message"),
            lastMessageDateSent: row.optionalInt("last_message_date_sent"),
            unreadCount: row.int("unread_count"),
            updatedAt: row.int("updated_at"),
            rawJSON: row.string("raw_json") ?? "",
            muted: row.int("muted") != 0,
            mutedUntil: row.optionalInt("muted_until"))
    }

    /// Inserts or updates `dialogs` in one transaction. A dialog older
    /// (`updatedAt`) than the cached one is ignored, so a slow process cannot
    /// overwrite newer data.
    package func upsertDialogs(_ dialogs: [CachedDialog]) throws(MessageCacheError) {
        guard !dialogs.isEmpty else { return }
        try wrapping {
            try database.transaction {
                for dialog in dialogs {
                    let changed = try database.run("""
                        INSERT INTO dialogs (id, type, name, occupant_ids, last_message, last_message_date_sent,
                                             unread_count, updated_at, raw_json)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET
                            type = excluded.type, name = excluded.name, occupant_ids = excluded.occupant_ids,
                            last_message = excluded.last_message,
                            last_message_date_sent = excluded.last_message_date_sent,
                            unread_count = excluded.unread_count, updated_at = excluded.updated_at,
                            raw_json = excluded.raw_json
                        WHERE excluded.updated_at >= dialogs.updated_at
                          AND (excluded.raw_json IS NOT dialogs.raw_json OR excluded.unread_count IS NOT dialogs.unread_count)
                        """,
                        [
                            .text(dialog.id.rawValue), .integer(Int64(dialog.type.rawValue)), .text(dialog.name),
                            .text(Self.userIDList(dialog.occupantIDs)),
                            .optional(dialog.lastMessage), .optional(dialog.lastMessageDateSent),
                            .integer(Int64(dialog.unreadCount)), .integer(Int64(dialog.updatedAt)), .text(dialog.rawJSON),
                        ])
                    guard changed > 0 else { continue }
                    try database.run("DELETE FROM dialog_occupants WHERE dialog_id = ?", [.text(dialog.id.rawValue)])
                    for userID in Set(dialog.occupantIDs) {
                        try database.run(
                            "INSERT INTO dialog_occupants (user_id, dialog_id) VALUES (?, ?)",
                            [.integer(Int64(userID)), .text(dialog.id.rawValue)])
                    }
                }
            }
        }
    }

    /// Every dialog with what names it (id, type, name, occupants) and its last activity, in
    /// the list's order; nothing else is read (the index of every dialog's names: matching a name,
    /// the chat view's list).
    package func dialogsForNaming() throws(MessageCacheError) -> [CachedDialog] {
        try wrapping {
            try database.records("SELECT \(Self.dialogNamingColumns) FROM dialogs d ORDER BY d.last_message_date_sent DESC, d.id DESC",
                               [], Self.dialog)
        }
    }

    /// Dialogs, most recent last message first (dialogs without messages last).
    /// `withRawJSON: false` leaves each `rawJSON` empty, for a caller that shows only
    /// the columns (a table): reading and checking ~300 bytes a dialog is then saved.
    package func dialogs(type: DialogType? = nil, limit: Int? = nil, withRawJSON: Bool = true) throws(MessageCacheError) -> [CachedDialog] {
        try wrapping {
            let limit = Int64(try Self.checkedLimit(limit))
            let columns = withRawJSON ? Self.dialogColumns : Self.dialogColumnsWithoutRawJSON
            if let type {
                return try database.records(
                    "SELECT \(columns) FROM dialogs d WHERE d.type = ? "
                        + "ORDER BY d.last_message_date_sent DESC, d.id DESC LIMIT ?",
                    [.integer(Int64(type.rawValue)), .integer(limit)], Self.dialog)
            }
            return try database.records(
                "SELECT \(columns) FROM dialogs d ORDER BY d.last_message_date_sent DESC, d.id DESC LIMIT ?",
                [.integer(limit)], Self.dialog)
        }
    }

    package func dialog(id: DialogID) throws(MessageCacheError) -> CachedDialog? {
        try wrapping {
            try database.firstRecord("SELECT \(Self.dialogColumns) FROM dialogs d WHERE d.id = ?", [.text(id.rawValue)], Self.dialog)
        }
    }

    /// Every dialog whose name is exactly `name`; more than one is the caller's ambiguity to report.
    package func dialogs(named name: String) throws(MessageCacheError) -> [CachedDialog] {
        try wrapping {
            try database.records(
                "SELECT \(Self.dialogColumns) FROM dialogs d WHERE d.name = ? ORDER BY d.last_message_date_sent DESC, d.id DESC",
                [.text(name)], Self.dialog)
        }
    }

    /// The private (type 3) dialog that has `userID` among its occupants; the most recent if several.
    package func privateDialog(withUserID userID: Int) throws(MessageCacheError) -> CachedDialog? {
        try wrapping {
            try database.firstRecord(
                """
                SELECT \(Self.dialogColumns) FROM dialog_occupants o JOIN dialogs d ON d.id = o.dialog_id
                WHERE o.user_id = ? AND d.type = 3
                ORDER BY d.last_message_date_sent DESC, d.id DESC LIMIT 1
                """,
                [.integer(Int64(userID))], Self.dialog)
        }
    }

    // MARK: users

    static func user(_ row: Row) -> CachedUser {
        CachedUser(id: row.int("id"), login: row.string("login") ?? "", fullName: row.string("full_name"),
                   rawJSON: row.string("raw_json") ?? "")
    }

    /// Inserts or updates `users` in one transaction.
    package func upsertUsers(_ users: [CachedUser]) throws(MessageCacheError) {
        guard !users.isEmpty else { return }
        try wrapping {
            try database.transaction {
                for user in users {
                    try database.run(
                        """
                        INSERT INTO users (id, login, full_name, raw_json) VALUES (?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET
                            login = excluded.login, full_name = excluded.full_name, raw_json = excluded.raw_json
                        WHERE users.raw_json IS NOT excluded.raw_json
                        """,
                        [.integer(Int64(user.id)), .text(user.login), .optional(user.fullName), .text(user.rawJSON)])
                }
            }
        }
    }

    package func user(id: Int) throws(MessageCacheError) -> CachedUser? {
        try wrapping {
            try database.firstRecord(
                "SELECT id, login, full_name, raw_json FROM users WHERE id = ?", [.integer(Int64(id))], Self.user)
        }
    }

    package func user(login: String) throws(MessageCacheError) -> CachedUser? {
        try wrapping {
            try database.firstRecord(
                "SELECT id, login, full_name, raw_json FROM users WHERE login = ? ORDER BY id LIMIT 1",
                [.text(login)], Self.user)
        }
    }

    // MARK: errors

    static func checkedLimit(_ limit: Int?) throws(MessageCacheError) -> Int {
        guard let limit else { return -1 }
        guard limit >= 0 else {
            throw MessageCacheError(kind: .invalidArgument, message: "limit must not be negative (got \(limit))")
        }
        return limit
    }

    @discardableResult
    func wrapping<T>(_ body: () throws -> T) throws(MessageCacheError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw Self.cacheError(error, path: path, access: access)
        } catch let error as MessageCacheError {
            throw error
        } catch {
            throw MessageCacheError(kind: .storage, message: String(describing: error))
        }
    }

    @discardableResult
    static func wrapping<T>(_ body: () throws -> T) throws(MessageCacheError) -> T {
        do {
            return try body()
        } catch let error as MessageCacheError {
            throw error
        } catch let error as SQLiteError {
            throw MessageCacheError(kind: .storage, message: error.message, underlying: error)
        } catch {
            throw MessageCacheError(kind: .storage, message: String(describing: error))
        }
    }
}

@available(*, unavailable)
extension ChatCache: Sendable {}
