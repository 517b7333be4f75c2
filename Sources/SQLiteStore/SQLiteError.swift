/// The one error type of SQLiteStore. It carries what a person needs to act:
/// the code, the extended code, SQLite's message and the SQL text. Bound
/// argument values are never kept, so messages and secrets cannot leak into logs.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`).
    public var code: ResultCode { extendedCode.primary }
    /// The extended result code as SQLite reported it.
    public let extendedCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), or the wrapper's own for misuse.
    public let message: String
    /// The statement that failed, if any.
    public let sql: String?

    public init(extendedCode: ResultCode, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue) (\(code.description)): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }

    static func closed(sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: .misuse, message: "the database connection is closed", sql: sql)
    }
}
