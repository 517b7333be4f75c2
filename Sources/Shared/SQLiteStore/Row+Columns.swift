/// The current row of a query, read by column name (the `AS` alias, else the column's
/// name) at the cost of reading it by position: the statement's column names are read
/// once per query, at its first row, and each name is looked for from just after
/// the one found last, so a reader that asks in the order of the SELECT list compares
/// one name per column. A reader and its query therefore agree by name, not by a count
/// kept by hand; a name the query does not select is a programmer error.
package struct Row {
    package let statement: Statement
    private let columns: ColumnNames

    fileprivate init(_ statement: Statement, _ columns: ColumnNames) {
        self.statement = statement
        self.columns = columns
    }

    /// The text of the column called `name`, or nil for NULL.
    package func string(_ name: String) -> String? { statement.string(columns.index(of: name)) }
    package func int(_ name: String) -> Int { statement.int(columns.index(of: name)) }
    package func int64(_ name: String) -> Int64 { statement.int64(columns.index(of: name)) }
    /// The integer, or nil for NULL.
    package func optionalInt(_ name: String) -> Int? { statement.optionalInt(columns.index(of: name)) }
    package func double(_ name: String) -> Double { statement.double(columns.index(of: name)) }
    package func isNull(_ name: String) -> Bool { statement.isNull(columns.index(of: name)) }
}

/// A statement's result column names, with where the last look-up found one.
private final class ColumnNames {
    private let names: [String]
    private let sql: String
    private var next = 0

    init(_ statement: Statement) {
        names = (0..<statement.columnCount).map(statement.columnName)
        sql = statement.sql
    }

    func index(of name: String) -> Int {
        var index = next
        for _ in 0..<names.count {
            if names[index] == name {
                next = index + 1 == names.count ? 0 : index + 1
                return index
            }
            index = index + 1 == names.count ? 0 : index + 1
        }
        preconditionFailure("no result column \(name) in \(sql)")
    }
}

extension Statement {
    /// Binds `arguments` and maps each row, read by column name, with `transform`.
    package func records<T>(_ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        var found: ColumnNames?
        return try rows(arguments) { statement in
            let columns = found ?? ColumnNames(statement)
            found = columns
            return try transform(Row(statement, columns))
        }
    }
}

extension Database {
    /// Rows of `sql`, read by column name, mapped by `transform`.
    package func records<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql).records(arguments, transform)
    }

    /// The first row of `sql`, read by column name, mapped by `transform`; nil when there is none.
    package func firstRecord<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ transform: (Row) throws -> T) throws -> T? {
        try queryFirst(sql, arguments) { try transform(Row($0, ColumnNames($0))) }
    }
}
