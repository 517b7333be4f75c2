import Testing
import SQLiteStore
import TestSupport

@Suite("SQLiteStore.Migrator")
struct MigratorTests {
    static let migrator = Migrator([
        Migration("create a", sql: "CREATE TABLE a (x)"),
        Migration("create b") { db in try db.execute("CREATE TABLE b (y)") },
    ])

    @Test func appliesOnceAndRecords() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("m.sqlite")
        do {
            let db = try Database(path: path)
            #expect(try Self.migrator.migrate(db) == ["create a", "create b"])
            #expect(try Self.migrator.appliedMigrations(db) == ["create a", "create b"])
            #expect(try db.userVersion() == 2)
            #expect(try db.query("SELECT name FROM schema_migrations ORDER BY name") { $0.string(0) } == ["create a", "create b"])
        }
        let db = try Database(path: path)
        // Re-running would fail with "table a already exists" if it redid the steps.
        #expect(try Self.migrator.migrate(db) == [])
        let longer = Migrator(Self.migrator.migrations + [Migration("create c", sql: "CREATE TABLE c (z)")])
        #expect(try longer.migrate(db) == ["create c"])
        #expect(try db.userVersion() == 3)
        // An older program refuses a newer schema instead of corrupting it.
        #expect(throws: SQLiteError.self) { try Self.migrator.migrate(db) }
    }

    @Test func failedStepIsRolledBackAndNotRecorded() throws {
        let db = try Database(path: ":memory:")
        let broken = Migrator([
            Migration("ok", sql: "CREATE TABLE ok (x)"),
            Migration("broken", sql: "CREATE TABLE half (x); CREATE TABLE nope (;"),
        ])
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try broken.appliedMigrations(db) == ["ok"])
        #expect(try db.userVersion() == 1)
        #expect(try db.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name = 'half'") { $0.int(0) } == 0)
    }

    @Test func concurrentFirstOpenMigratesOnce() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("race.sqlite")
        let failures = Failures()
        onThreads(8) { _ in
            do {
                let db = try Database(path: path)
                try Self.migrator.migrate(db)
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        let db = try Database(path: path)
        #expect(try db.queryFirst("SELECT count(*) FROM schema_migrations") { $0.int(0) } == 2)
    }
}
