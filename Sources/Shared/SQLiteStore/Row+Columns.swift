/// The current row of a query, read by column name (the `AS` alias, else the column's
/// name) at the cost of reading it by position (`Statement.columnIndex`). A reader and its
/// query therefore agree by name, not by a count kept by hand; a name the query does not
/// select is a programmer error.
package struct Row {
    package let statement: Statement

    fileprivate init(_ statement: Statement) {
        self.statement = statement
    }

    private func index(_ name: String) -> Int {
        guard let index = statement.columnIndex(name) else { preconditionFailure("no result column \(name) in \(statement.sql)") }
        return index
    }

    /// The text of the column called `name`, or nil for NULL.
    package func string(_ name: String) -> String? { statement.string(index(name)) }
    package func int(_ name: String) -> Int { statement.int(index(name)) }
    package func int64(_ name: String) -> Int64 { statement.int64(index(name)) }
    /// The integer, or nil for NULL.
    package func optionalInt(_ name: String) -> Int? { statement.optionalInt(index(name)) }
    package func double(_ name: String) -> Double { statement.double(index(name)) }
    package func isNull(_ name: String) -> Bool { statement.isNull(index(name)) }
}

extension Statement {
    /// Binds `arguments` and maps each row, read by column name, with `transform`.
    package func records<T>(_ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        try rows(arguments) { try transform(Row($0)) }
    }
}

extension Database {
    /// Rows of `sql`, read by column name, mapped by `transform`.
    package func records<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql).records(arguments, transform)
    }

    /// The first row of `sql`, read by column name, mapped by `transform`; nil when there is none.
    package func firstRecord<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> T? {
        try queryFirst(sql, arguments) { try transform(Row($0)) }
    }
}
