/// Applies an ordered list of migrations. `PRAGMA user_version` mirrors the
/// number applied, so an up-to-date database costs one query to check.
package struct Migrator: Sendable {
    package let migrations: [Migration]

    /// The `user_version` of a database with every migration applied.
    package var latestVersion: Int { migrations.count }

    package init(_ migrations: [Migration]) {
        precondition(Set(migrations.map(\.name)).count == migrations.count, "migration names must be unique")
        self.migrations = migrations
    }

    /// Applies the missing migrations and returns their names (empty when up to date).
    /// Safe against concurrent processes: each step re-checks the record
    /// inside its `BEGIN IMMEDIATE` transaction.
    @discardableResult
    package func migrate(_ database: Database) throws -> [String] {
        let version = try database.userVersion()
        if version == migrations.count { return [] }
        if version > migrations.count {
            throw SQLiteError(
                extendedCode: .error,
                message: "the database schema (version \(version)) is newer than this program knows (\(migrations.count))")
        }
        var applied: [String] = []
        for (index, migration) in migrations.enumerated() {
            let didApply = try database.transaction(.immediate) { () throws -> Bool in
                try database.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        name TEXT PRIMARY KEY NOT NULL,
                        applied_at INTEGER NOT NULL DEFAULT (unixepoch())
                    ) WITHOUT ROWID
                    """)
                let done = try database.queryFirst(
                    "SELECT 1 FROM schema_migrations WHERE name = ?", [.text(migration.name)]) { _ in true } ?? false
                if !done {
                    try migration.apply(database)
                    try database.run("INSERT INTO schema_migrations (name) VALUES (?)", [.text(migration.name)])
                }
                // PRAGMA takes no parameters; the value is our own integer.
                try database.execute("PRAGMA user_version = \(index + 1)")
                return !done
            }
            if didApply { applied.append(migration.name) }
        }
        return applied
    }

    /// Names recorded in `schema_migrations`, in the order applied.
    package func appliedMigrations(_ database: Database) throws -> [String] {
        let exists = try database.queryFirst(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") { _ in true } ?? false
        guard exists else { return [] }
        let recorded = Set(try database.query("SELECT name FROM schema_migrations") { $0.string(0) ?? "" })
        return migrations.map(\.name).filter(recorded.contains)
    }
}
