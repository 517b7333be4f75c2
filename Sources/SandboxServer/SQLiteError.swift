/// An SQLite failure: the result code, SQLite's own message and the SQL (never bound values).
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var sql: String?
    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in `\($0)`)" } ?? "")
    }
}
