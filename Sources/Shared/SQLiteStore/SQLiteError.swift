/// The one error type of SQLiteStore. It carries what a person needs to act:
/// the code, the extended code, SQLite's message and the SQL text. Bound
/// argument values are never kept, so messages and secrets cannot leak into logs.
package struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`).
    package var code: ResultCode { extendedCode.primary }
    /// The extended result code as SQLite reported it.
    package let extendedCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), or the wrapper's own for misuse.
    package let message: String
    /// The statement that failed, if any.
    package let sql: String?
    /// The operating system's `errno` behind an I/O or open failure (`sqlite3_system_errno`):
    /// tells a full disk (`ENOSPC`) or a file-size limit (`EFBIG`) from a read-only file system.
    package let systemErrno: Int32?

    package init(extendedCode: ResultCode, message: String, sql: String? = nil, systemErrno: Int32? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    package var description: String {
        var text = "SQLite error \(extendedCode.rawValue) (\(code.description)): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }

    static func closed(sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: .misuse, message: "the database connection is closed", sql: sql)
    }
}
