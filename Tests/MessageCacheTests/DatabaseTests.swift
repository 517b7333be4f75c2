import Testing
import Foundation
import SQLiteStore
import TestSupport

@Suite("SQLiteStore.Database")
struct DatabaseTests {
    @Test func useAfterCloseThrowsMisuse() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (x)")
        let statement = try db.prepare("SELECT x FROM t")
        try db.close()
        #expect(!db.isOpen)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error.code == .misuse)
        let stepError = try #require(throws: SQLiteError.self) { _ = try statement.step() }
        #expect(stepError.code == .misuse)
        #expect(stepError.sql == "SELECT x FROM t")
        #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1") }
        #expect(throws: SQLiteError.self) { try db.transaction { } }
    }

    @Test func statementOutlivingItsDatabaseThrows() throws {
        var db: Database? = try Database(path: ":memory:")
        let statement = try db!.prepare("SELECT 1")
        #expect(try statement.step())
        db = nil
        let error = try #require(throws: SQLiteError.self) { try statement.reset() }
        #expect(error.code == .misuse)
    }

    @Test func closeTwiceIsFine() throws {
        let db = try Database(path: ":memory:")
        try db.close()
        try db.close()
        #expect(!db.isOpen)
    }

    @Test func openFailureThrows() {
        let error = #expect(throws: SQLiteError.self) {
            _ = try Database(path: "/nonexistent-dir-\(Int.random(in: 0...1_000_000))/x.sqlite")
        }
        #expect(error?.code == .cantOpen)
    }

    @Test func badSQLErrorCarriesSQLAndMessage() throws {
        let db = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { _ = try db.prepare("SELEKT 1") }
        #expect(error.code == .error)
        #expect(error.sql == "SELEKT 1")
        #expect(error.message.contains("syntax error"))
        #expect(error.description.contains("SELEKT 1"))
    }

    @Test func errorNeverShowsBoundValues() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE secrets (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)")
        try db.run("INSERT INTO secrets (body) VALUES (?)", [.text("hunter2-top-secret")])
        let error = try #require(throws: SQLiteError.self) {
            try db.run("INSERT INTO secrets (body) VALUES (?)", [.text("hunter2-top-secret")])
        }
        #expect(error.code == .constraint)
        #expect(error.extendedCode == .constraintUnique)
        #expect(error.message.contains("UNIQUE constraint failed"))
        #expect(error.sql == "INSERT INTO secrets (body) VALUES (?)")
        #expect(!error.description.contains("hunter2"))
        #expect(!String(reflecting: error).contains("hunter2"))
    }

    @Test func resultCodeStruct() {
        #expect(ResultCode.busySnapshot.primary == .busy)
        #expect(ResultCode.busySnapshot.isBusy)
        #expect(ResultCode.constraintUnique.primary == .constraint)
        #expect(!ResultCode.constraint.isBusy)
        let unknown = ResultCode(rawValue: 12345)
        #expect(unknown.rawValue == 12345)
        #expect(ResultCode(rawValue: 5) == .busy)
        #expect(ResultCode.busy.description == "database is locked")
    }

    @Test func bindAndReadRoundTrip() throws {
        let db = try Database(path: ":memory:")
        let values: [SQLiteValue] = [.null, .integer(-42), .real(2.5), .text("héllo\u{0}world"), .text(""), .blob([0, 1, 255])]
        let row = try #require(try db.queryFirst("SELECT ?, ?, ?, ?, ?, ?", values) { s in (0..<6).map { s.value($0) } })
        #expect(row == values)
        #expect(throws: SQLiteError.self) { try db.run("SELECT ?", []) }
    }

    @Test func transactionRollsBackOnThrow() throws {
        struct Boom: Error {}
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (x)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == 0)
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            // Nested: a savepoint, rolled back alone.
            try? db.transaction { () throws -> Void in
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try db.query("SELECT x FROM t") { $0.int(0) } == [1])
    }

    @Test func cachedStatementIsReused() throws {
        let db = try Database(path: ":memory:")
        let a = try db.cachedStatement("SELECT ?")
        let b = try db.cachedStatement("SELECT ?")
        #expect(a === b)
        #expect(try db.query("SELECT ?", [.integer(7)]) { $0.int(0) } == [7])
        #expect(try db.query("SELECT ?", [.integer(8)]) { $0.int(0) } == [8])
    }

    @Test func fileDatabaseIsWALAndPrivate() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("w.sqlite")
        let db = try Database(path: path)
        #expect(try db.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try db.queryFirst("PRAGMA busy_timeout") { $0.int(0) } == 5000)
        try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0, "\(file) exists")
            #expect(info.st_mode & 0o777 == 0o600, "\(file) is 0600")
        }
    }
}

