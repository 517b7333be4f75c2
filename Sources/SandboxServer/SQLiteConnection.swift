// The sandbox's own small SQLite layer (house rule 1: nothing shared with the client).
internal import CSQLite

/// A value bound to or read from a statement.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Lets `bind` take plain Swift values.
protocol SQLiteBindable { var sqliteValue: SQLiteValue { get } }
extension Int: SQLiteBindable { var sqliteValue: SQLiteValue { .integer(Int64(self)) } }
extension Int64: SQLiteBindable { var sqliteValue: SQLiteValue { .integer(self) } }
extension Double: SQLiteBindable { var sqliteValue: SQLiteValue { .real(self) } }
extension String: SQLiteBindable { var sqliteValue: SQLiteValue { .text(self) } }
extension Array: SQLiteBindable where Element == UInt8 { var sqliteValue: SQLiteValue { .blob(self) } }
extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}

/// Owns one `sqlite3*`. Not Sendable: the sandbox uses it only on its event-loop thread.
final class SQLiteConnection {
    private var handle: OpaquePointer?

    /// Opens (creating) `path`; ":memory:" for a private in-memory database.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "\(message) (\(path))", sql: nil)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { close() }

    /// Idempotent; statements must have been released first (they are finalized in their deinit).
    func close() {
        guard let h = handle else { return }
        statements.removeAll() // finalizes them (and breaks their references back to us)
        sqlite3_close_v2(h)
        handle = nil
    }

    /// Prepared statements by SQL text: routing one message runs about twenty
    /// statements, and preparing each anew was most of the sandbox's work.
    private var statements: [String: SQLiteStatement] = [:]

    private func open() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database is closed", sql: nil) }
        return handle
    }

    /// Runs one or more statements without parameters (schema, pragmas).
    func execute(_ sql: String) throws {
        let db = try open()
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(errmsg)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        let db = try open()
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db)), sql: sql)
        }
        return SQLiteStatement(stmt, connection: self, sql: sql)
    }

    /// Prepares, binds, steps through every row and returns them.
    @discardableResult
    func query(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [SQLiteRow] {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try prepare(sql)
            statements[sql] = statement
        }
        try statement.bind(arguments) // resets it and clears the previous bindings
        var rows: [SQLiteRow] = []
        while let row = try statement.step() { rows.append(row) }
        return rows
    }

    func run(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws {
        try query(sql, arguments)
    }

    var lastInsertRowID: Int { handle.map { Int(sqlite3_last_insert_rowid($0)) } ?? 0 }
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Runs `body` in a transaction, rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        // Through the statement cache: a transaction per routed message.
        try run("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    func lastError(_ rc: Int32, sql: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed"
        return SQLiteError(code: rc, message: message, sql: sql)
    }
}

@available(*, unavailable) extension SQLiteConnection: Sendable {}

