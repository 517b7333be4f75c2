internal import CSQLite

extension Database {
    /// Copies this database, as one consistent snapshot, into the database at `destination`
    /// (SQLite's online backup API: `sqlite3_backup_init`, `_step`, `_finish`). One step copies
    /// every page under one read transaction, so a writer in another process goes on meanwhile
    /// (WAL) and cannot make the copy start over.
    package func backup(into destination: Database) throws {
        let source = try openHandle(sql: nil)
        let target = try destination.openHandle(sql: nil)
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw destination.error(sql: nil)
        }
        var rc: Int32
        repeat {
            rc = sqlite3_backup_step(backup, -1)
            // Busy or locked: another connection holds a lock for a moment; wait a little and step again.
            if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { sqlite3_sleep(10) }
        } while rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finished == SQLITE_OK else { throw destination.error(sql: nil) }
    }
}
