internal import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A prepared statement. Owns the `sqlite3_stmt*` and finalizes it in `deinit`.
/// Using it after its `Database` was closed throws `SQLITE_MISUSE`.
package final class Statement {
    /// The SQL text as prepared.
    package let sql: String
    private let handle: OpaquePointer
    // Weak: the database caches statements, so a strong reference would be a cycle.
    private weak var database: Database?

    init(database: Database, sql: String) throws {
        let db = try database.openHandle(sql: sql)
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK else { throw database.error(sql: sql) }
        guard let statement else {
            throw SQLiteError(extendedCode: .misuse, message: "no SQL statement in the text", sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private func liveDatabase() throws -> Database {
        guard let database, database.isOpen else { throw SQLiteError.closed(sql: sql) }
        return database
    }

    /// Resets the statement to run again and clears its bindings.
    package func reset() throws {
        _ = try liveDatabase()
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets, then binds `values` to parameters 1...n (every parameter: none is left
    /// from the last run, so the bindings need no clearing first).
    package func bind(_ values: [SQLiteValue]) throws {
        // One check that the database is open for the whole call (a weak load each is not free).
        let database = try liveDatabase()
        sqlite3_reset(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(
                extendedCode: .range,
                message: "expected \(expected) arguments, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1, in: database)
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    package func bind(_ value: SQLiteValue, at index: Int) throws {
        try bind(value, at: index, in: try liveDatabase())
    }

    private func bind(_ value: SQLiteValue, at index: Int, in database: Database) throws {
        let i = Int32(index)
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, i)
        case .integer(let v):
            rc = sqlite3_bind_int64(handle, i, v)
        case .real(let v):
            rc = sqlite3_bind_double(handle, i, v)
        case .text(var v):
            rc = v.withUTF8 { buffer in
                guard let base = buffer.baseAddress else { return sqlite3_bind_text(handle, i, "", 0, transient) }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, i, $0, Int32(buffer.count), transient)
                }
            }
        case .blob(let v):
            rc = v.withUnsafeBytes { buffer in
                sqlite3_bind_blob(handle, i, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), transient)
            }
        }
        if rc != SQLITE_OK { throw database.error(sql: sql) }
    }

    /// Advances to the next row: true when a row is available, false when done.
    package func step() throws -> Bool {
        let database = try liveDatabase()
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = database.error(sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `arguments` and steps until done, ignoring rows.
    package func run(_ arguments: [SQLiteValue] = []) throws {
        try bind(arguments)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds `arguments` and maps each row with `transform`.
    package func rows<T>(_ arguments: [SQLiteValue] = [], _ transform: (Statement) throws -> T) throws -> [T] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        var result: [T] = []
        while try step() {
            result.append(try transform(self))
        }
        return result
    }

    // MARK: columns of the current row (0-based)

    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    package func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    package func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    package func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    package func int(_ index: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// The integer, or nil for NULL.
    package func optionalInt(_ index: Int) -> Int? {
        isNull(index) ? nil : int(index)
    }

    package func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The text of the column, or nil for NULL.
    package func string(_ index: Int) -> String? {
        let i = Int32(index)
        guard let text = sqlite3_column_text(handle, i) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The bytes of the column, or nil for NULL (text comes back as its UTF-8).
    package func blob(_ index: Int) -> [UInt8]? {
        let i = Int32(index)
        guard !isNull(index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, i))
        guard let bytes = sqlite3_column_blob(handle, i), count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    package func value(_ index: Int) -> SQLiteValue {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT: return .text(string(index) ?? "")
        case SQLITE_BLOB: return .blob(blob(index) ?? [])
        default: return .null
        }
    }

    // MARK: columns of the current row by name

    /// The result columns' names, read on the first look-up by name and again only after
    /// SQLite re-prepares the statement (a schema change may move `SELECT *`'s columns).
    private var columnNames: [String] = []
    /// `SQLITE_STMTSTATUS_REPREPARE` when `columnNames` was read; -1 before.
    private var columnNamesPrepared: Int32 = -1
    /// Where the next look-up starts: just after the column found last, so a reader that
    /// asks in the order of the SELECT list compares one name per column, which costs what
    /// reading by position does.
    private var nextColumn = 0
    /// Whether a name stands twice (`SELECT a.id, b.id`): then a look-up answers the first.
    private var columnNamesRepeat = false

    /// The 0-based index of the result column called `name` (its `AS` alias, else
    /// the column's name; compared exactly; the first of that name), or nil when there is none.
    package func columnIndex(_ name: String) -> Int? {
        let prepared = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        if prepared != columnNamesPrepared {
            columnNames = (0..<columnCount).map(columnName)
            columnNamesPrepared = prepared
            columnNamesRepeat = Set(columnNames).count != columnNames.count
            nextColumn = 0
        }
        let count = columnNames.count
        guard count > 0 else { return nil }
        var index = nextColumn < count ? nextColumn : 0
        var found: Int?
        for _ in 0..<count {
            if columnNames[index] == name {
                found = index
                break
            }
            index = index + 1 == count ? 0 : index + 1
        }
        guard var found else { return nil }
        if columnNamesRepeat { found = columnNames.firstIndex(of: name) ?? found }
        nextColumn = found + 1
        return found
    }

    /// The value of the column called `name` in the current row; `.null` when the
    /// statement has no such column.
    package subscript(_ name: String) -> SQLiteValue {
        columnIndex(name).map(value) ?? .null
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
