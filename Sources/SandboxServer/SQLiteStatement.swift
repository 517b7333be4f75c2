internal import CSQLite

/// SQLITE_TRANSIENT: SQLite copies bound text/blobs before the call returns.
private let transientDestructor = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Owns one `sqlite3_stmt*`, finalized in deinit. Keeps its connection alive.
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private let connection: SQLiteConnection
    let sql: String

    init(_ stmt: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.stmt = stmt
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(stmt) }

    func bind(_ arguments: [any SQLiteBindable]) throws {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        for (i, argument) in arguments.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch argument.sqliteValue {
            case .null: rc = sqlite3_bind_null(stmt, index)
            case .integer(let v): rc = sqlite3_bind_int64(stmt, index, v)
            case .real(let v): rc = sqlite3_bind_double(stmt, index, v)
            case .text(let s): rc = sqlite3_bind_text(stmt, index, s, -1, transientDestructor)
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob(stmt, index, $0.baseAddress, Int32($0.count), transientDestructor) }
            }
            if rc != SQLITE_OK { throw connection.lastError(rc, sql: sql) }
        }
    }

    /// The next row, or nil when done.
    func step() throws -> SQLiteRow? {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_DONE { return nil }
        guard rc == SQLITE_ROW else { throw connection.lastError(rc, sql: sql) }
        var values: [String: SQLiteValue] = [:]
        for column in 0..<sqlite3_column_count(stmt) {
            let name = String(cString: sqlite3_column_name(stmt, column))
            switch sqlite3_column_type(stmt, column) {
            case SQLITE_INTEGER: values[name] = .integer(sqlite3_column_int64(stmt, column))
            case SQLITE_FLOAT: values[name] = .real(sqlite3_column_double(stmt, column))
            case SQLITE_TEXT: values[name] = .text(String(cString: sqlite3_column_text(stmt, column)))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(stmt, column))
                if let p = sqlite3_column_blob(stmt, column), count > 0 {
                    values[name] = .blob(Array(UnsafeRawBufferPointer(start: p, count: count)))
                } else {
                    values[name] = .blob([])
                }
            default: values[name] = .null
            }
        }
        return SQLiteRow(values: values)
    }
}

@available(*, unavailable) extension SQLiteStatement: Sendable {}
