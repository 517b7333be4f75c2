internal import CSQLite

internal import Glibc

/// One SQLite connection. Owns the `sqlite3*` handle: `init` fails when the
/// database cannot be opened, `close()` is idempotent and `deinit` closes.
///
/// A connection is not `Sendable`: confine it to one thread or a serial owner
/// and give every thread or process its own `Database`.
package final class Database {
    /// How to open the database file.
    package struct Options: Sendable {
        /// Open read-only (the file must exist).
        package var readOnly: Bool
        /// How long a statement waits for another connection's lock.
        package var busyTimeout: Duration
        /// Permissions of a file this call creates (`0o600`: the cache holds private messages).
        package var fileMode: UInt16
        /// Put file databases in WAL mode so readers never block writers.
        package var walMode: Bool

        package init(readOnly: Bool = false, busyTimeout: Duration = .seconds(5), fileMode: UInt16 = 0o600, walMode: Bool = true) {
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
            self.fileMode = fileMode
            self.walMode = walMode
        }
    }

    /// The path given to `init` (`:memory:` for an in-memory database).
    package let path: String
    private var handle: OpaquePointer?
    private var statementCache: [String: Statement] = [:]

    /// Opens (and creates, unless read-only) the database at `path`, sets the
    /// busy timeout and extended result codes, and switches files to WAL.
    package init(path: String, options: Options = Options()) throws {
        self.path = path
        let isFile = !(path.isEmpty || path == ":memory:" || path.hasPrefix("file:"))
        if isFile && !options.readOnly {
            try Self.createFileIfMissing(path, mode: options.fileMode)
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        if path.hasPrefix("file:") { flags |= SQLITE_OPEN_URI }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? ResultCode(rawValue: rc).description
            let systemErrno = db.map { sqlite3_system_errno($0) }
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: ResultCode(rawValue: rc), message: "\(message): \(path)",
                              systemErrno: systemErrno.flatMap { $0 == 0 ? nil : $0 })
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        let milliseconds = options.busyTimeout.components.seconds * 1000
            + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(db, Int32(clamping: milliseconds))
        if isFile && options.walMode && !options.readOnly {
            // Persistent in the file: on an existing WAL database this is a header read.
            // Switching a new file needs a moment of exclusive access, hence the retry.
            try retryingWhileBusy { try execute("PRAGMA journal_mode=WAL") }
            // Safe with WAL: a crash of the process loses nothing; only power loss may drop the last commit.
            try execute("PRAGMA synchronous=NORMAL")
        }
    }

    deinit {
        statementCache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Whether `close()` has not been called yet.
    package var isOpen: Bool { handle != nil }

    /// Closes the connection. Calling it again does nothing; any later use of
    /// the connection or its statements throws `SQLiteError` (`SQLITE_MISUSE`).
    package func close() throws {
        guard let db = handle else { return }
        statementCache.removeAll()
        handle = nil
        // close_v2: statements still held by callers keep the connection as a
        // zombie until they are finalized in their deinit.
        let rc = sqlite3_close_v2(db)
        if rc != SQLITE_OK {
            throw SQLiteError(extendedCode: ResultCode(rawValue: rc), message: "close failed")
        }
    }

    /// Runs one or more SQL statements that take no arguments (`sqlite3_exec`).
    package func execute(_ sql: String) throws {
        let db = try openHandle(sql: sql)
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw error(sql: sql) }
    }

    /// Prepares a new statement, finalized when it is released.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for the life of the connection, reset and
    /// with bindings cleared. Use it for hot queries; don't nest two uses of
    /// the same SQL.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            try statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `sql` with `arguments` and returns the number of rows it changed.
    @discardableResult
    package func run(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int {
        let statement = try cachedStatement(sql)
        try statement.run(arguments)
        return changes
    }

    /// Rows of `sql` mapped by `transform`, which reads columns of the current row.
    package func query<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        return try statement.rows(arguments, transform)
    }

    /// The first row of `sql` mapped by `transform`, or nil.
    package func queryFirst<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Statement) throws -> T) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { try? statement.reset() }
        return try statement.step() ? transform(statement) : nil
    }

    /// Runs `body` in a transaction and commits, or rolls back if it throws.
    ///
    /// When the database stays busy or locked past the busy timeout (or a
    /// deferred transaction hits `SQLITE_BUSY_SNAPSHOT`), the whole
    /// transaction is rolled back and `body` runs again, up to `attempts`
    /// times: keep `body` short and free of side effects outside the
    /// database. Inside another transaction, `body` runs in a savepoint.
    @discardableResult
    package func transaction<T>(_ kind: TransactionKind = .immediate, attempts: Int = 8, _ body: () throws -> T) throws -> T {
        let db = try openHandle(sql: nil)
        if sqlite3_get_autocommit(db) == 0 {
            return try savepoint(body)
        }
        return try retryingWhileBusy(attempts: attempts) {
            try begin(kind)
            do {
                let result = try body()
                try commit()
                return result
            } catch {
                try? rollback()
                throw error
            }
        }
    }

    /// Opens a transaction that `commit()` or `rollback()` ends, for work that spans several
    /// calls (the sandbox commits once per turn of its event loop); `transaction` is the usual way.
    /// Not retried: a busy database waits the busy timeout, then throws.
    package func begin(_ kind: TransactionKind = .immediate) throws {
        try control("BEGIN \(kind.rawValue)")
    }

    /// Commits the open transaction.
    package func commit() throws {
        try control("COMMIT")
    }

    /// Rolls back the open transaction, if there is one (SQLite may have rolled it back already).
    package func rollback() throws {
        guard isInTransaction else { return }
        try control("ROLLBACK")
    }

    /// Transaction control through kept statements: parsing `BEGIN` and `COMMIT` again for
    /// every transaction was a measurable part of a small one.
    private func control(_ sql: String) throws {
        let statement = try cachedStatement(sql)
        try statement.run()
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        try control("SAVEPOINT nested")
        do {
            let result = try body()
            try control("RELEASE nested")
            return result
        } catch {
            try? control("ROLLBACK TO nested")
            try? control("RELEASE nested")
            throw error
        }
    }

    /// Runs `body`, and again after a short randomised pause while it fails with busy/locked.
    private func retryingWhileBusy<T>(attempts: Int = 8, _ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.code.isBusy && attempt < attempts {
                attempt += 1
                usleep(UInt32.random(in: 1_000...20_000) * UInt32(attempt))
            }
        }
    }

    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (`sqlite3_changes64`).
    package var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The rowid of the last successful INSERT on this connection.
    package var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Whether the main database was opened read-only (asked for, or a file
    /// SQLite could only open for reading: `sqlite3_db_readonly`).
    package var isReadOnly: Bool {
        guard let handle else { return false }
        return sqlite3_db_readonly(handle, "main") == 1
    }

    /// `PRAGMA user_version`.
    package func userVersion() throws -> Int {
        try queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// The lines of `EXPLAIN QUERY PLAN sql` (the `detail` column), to check index use.
    package func queryPlan(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [String] {
        let statement = try prepare("EXPLAIN QUERY PLAN " + sql)
        return try statement.rows(arguments) { $0.string(3) ?? "" }
    }

    // MARK: internal, for Statement

    /// The handle, or the "closed" error naming `sql`.
    func openHandle(sql: String?) throws -> OpaquePointer {
        guard let handle else { throw SQLiteError.closed(sql: sql) }
        return handle
    }

    /// The connection's current error (`sqlite3_extended_errcode`, `sqlite3_errmsg`) for `sql`.
    func error(sql: String?) -> SQLiteError {
        guard let handle else { return .closed(sql: sql) }
        let code = ResultCode(rawValue: sqlite3_extended_errcode(handle))
        var systemErrno = sqlite3_system_errno(handle)
        // SQLite records the errno of some failures only (not a failed write during COMMIT);
        // right after the call, the C library's errno is still that of the failed system call.
        let lastErrno = errno
        if systemErrno == 0 && [.ioError, .full].contains(code.primary) { systemErrno = lastErrno }
        return SQLiteError(
            extendedCode: code,
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql, systemErrno: systemErrno == 0 ? nil : systemErrno)
    }

    /// Creates an empty file with `mode` so SQLite (and its -wal/-shm files,
    /// which copy the database's permissions) never exist with looser ones.
    private static func createFileIfMissing(_ path: String, mode: UInt16) throws {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode_t(mode))
        if fd >= 0 {
            _ = fchmod(fd, mode_t(mode))  // the umask may have narrowed or not; be exact
            _ = Glibc.close(fd)
            return
        }
        let code = errno
        if code == EEXIST { return }
        throw SQLiteError(
            extendedCode: .cantOpen,
            message: "cannot create \(path): \(String(cString: strerror(code)))", systemErrno: code)
    }
}

@available(*, unavailable)
extension Database: Sendable {}
