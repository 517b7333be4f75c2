import Testing
import SQLiteStore

/// Reading columns by name and the typed readers of `SQLiteValue`.
@Suite("SQLiteStore.Statement columns")
struct StatementColumnTests {
    static func database() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, photo BLOB, note TEXT);
            INSERT INTO t VALUES (7, 'ann', 2.5, x'00ff10', NULL);
            """)
        return db
    }

    @Test func columnsByNameAliasOrTable() throws {
        let db = try Self.database()
        let row = try #require(try db.queryFirst("SELECT t.*, id * 2 AS double_id FROM t") { s in
            (s.columnIndex("name"), s.columnIndex("double_id"), s.columnIndex("missing"), s["id"], s["double_id"],
             s["name"], s["score"], s["photo"], s["note"], s["missing"])
        })
        #expect(row.0 == 1 && row.1 == 5 && row.2 == nil)
        #expect(row.3 == .integer(7) && row.4 == .integer(14))
        #expect(row.5 == .text("ann") && row.6 == .real(2.5) && row.7 == .blob([0, 255, 16]))
        #expect(row.8 == .null && row.9 == .null, "NULL and a missing column both read as .null")
    }

    /// `records` reads each row by name, in the SELECT list's order or any other, an alias too.
    @Test func recordsReadByNameInAnyOrder() throws {
        let db = try Self.database()
        try db.execute("INSERT INTO t VALUES (8, 'bo', 1.0, NULL, 'x')")
        let rows = try db.records("SELECT id, name, score, note, id * 2 AS double_id FROM t ORDER BY id") { row in
            "\(row.int("id")) \(row.string("name") ?? "") \(row.double("score")) \(row.string("note") ?? "-") \(row.int("double_id"))"
        }
        #expect(rows == ["7 ann 2.5 - 14", "8 bo 1.0 x 16"])
        let backwards = try db.records("SELECT id, name, score, note FROM t ORDER BY id") { row in
            "\(row.isNull("note")) \(row.double("score")) \(row.string("name") ?? "") \(row.int64("id")) \(row.optionalInt("note") ?? -1)"
        }
        #expect(backwards == ["true 2.5 ann 7 -1", "false 1.0 bo 8 0"])
        #expect(try db.firstRecord("SELECT name FROM t WHERE id = ?", [.integer(8)]) { $0.string("name") } == "bo")
        #expect(try db.firstRecord("SELECT name FROM t WHERE id = ?", [.integer(9)]) { $0.string("name") } == nil)
    }

    @Test func namesAreMatchedExactly() throws {
        let db = try Self.database()
        #expect(try db.queryFirst("SELECT name AS Label FROM t") { ($0.columnIndex("Label"), $0.columnIndex("label")) }
                .map { [$0.0, $0.1] } == [0, nil])
    }

    @Test func namesFollowTheColumnsAfterASchemaChange() throws {
        let db = try Self.database()
        let statement = try db.cachedStatement("SELECT * FROM t")
        #expect(try statement.rows { [$0["name"], $0["extra"]] } == [[.text("ann"), .null]])
        // SQLite re-prepares the kept statement: `*` now has a column more, and the names follow.
        try db.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'x'")
        #expect(try statement.rows { [$0["name"], $0["extra"], .int($0.columnIndex("extra") ?? -1)] } == [[.text("ann"), .text("x"), .int(5)]])
    }

    @Test func aRepeatedNameReadsItsFirstColumn() throws {
        let db = try Self.database()
        #expect(try db.queryFirst("SELECT name AS n, id AS n FROM t") { $0["n"] } == .text("ann"))
    }

    @Test func typedReadersNeverConvertText() {
        #expect(SQLiteValue.integer(42).intValue == 42)
        #expect(SQLiteValue.real(3.0).intValue == 3)
        #expect(SQLiteValue.real(3.5).intValue == nil)
        #expect(SQLiteValue.real(1e300).intValue == nil)
        #expect(SQLiteValue.text("42").intValue == nil)
        #expect(SQLiteValue.integer(2).doubleValue == 2.0)
        #expect(SQLiteValue.real(0.25).doubleValue == 0.25)
        #expect(SQLiteValue.text("0.25").doubleValue == nil)
        #expect(SQLiteValue.text("x").textValue == "x")
        #expect(SQLiteValue.integer(1).textValue == nil)
        #expect(SQLiteValue.blob([1, 2]).blobValue == [1, 2])
        #expect(SQLiteValue.text("ab").blobValue == nil)
        #expect(SQLiteValue.null.intValue == nil && SQLiteValue.null.textValue == nil)
    }

    @Test func blobColumnAndBindingHelpers() throws {
        let db = try Self.database()
        #expect(try db.queryFirst("SELECT photo, note, name, x'' FROM t") { [$0.blob(0), $0.blob(1), $0.blob(2), $0.blob(3)] }
                == [[0, 255, 16], nil, Array("ann".utf8), []])
        let bound = try db.queryFirst("SELECT ?, ?, ?, ?", [.int(-5), .optional(nil as Double?), .optional(1.5), .optional(nil as Int?)]) {
            [$0.value(0), $0.value(1), $0.value(2), $0.value(3)]
        }
        #expect(bound == [.integer(-5), .null, .real(1.5), .null])
    }
}
