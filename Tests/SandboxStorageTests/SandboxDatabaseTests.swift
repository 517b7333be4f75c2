// The database without sockets: its schema steps, users, passwords, sessions.
import Testing
import TestSupport
@testable import SandboxStorage
import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SandboxDatabaseTests {
    /// A clock the test moves by hand.
    typealias Clock = TestClock

    func makeDatabase(ttl: Double = 60, clock: Clock = Clock()) throws -> SandboxDatabase {
        try SandboxDatabase(path: nil, tokenTTL: ttl, now: { clock.now })
    }

    func newUser(_ login: String, _ password: String = "password1") -> NewUser {
        NewUser(login: login, password: password)
    }

    @Test func migrationsAreRecorded() throws {
        let db = try makeDatabase()
        #expect(db.schemaVersion == SandboxDatabase.migrator.migrations.count)
        #expect(try SandboxDatabase.migrator.appliedMigrations(db.db) == SandboxDatabase.migrator.migrations.map(\.name))
    }

    /// A file of an earlier sandbox recorded its steps in `schema_version`: it opens
    /// with its data, nothing re-created, and that table is gone.
    @Test func databaseOfTheEarlierSandboxIsAdopted() throws {
        let path = "/tmp/sandbox-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        do {
            let old = try Database(path: path)
            try old.execute("""
                CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL);
                INSERT INTO schema_version VALUES (1, 'users-sessions-nonces', 0), (2, 'dialogs-messages', 0);
                """)
            // The tables of the two steps that sandbox had (later steps add more).
            let earlier = try Database(path: ":memory:")
            try Migrator(Array(SandboxDatabase.migrator.migrations.prefix(2))).migrate(earlier)
            let schema = try earlier.query("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'schema_%' AND name NOT LIKE 'sqlite_%'") {
                $0.string(0) ?? ""
            }
            for statement in schema { try old.execute(statement) }
            try old.execute("""
                INSERT INTO users (login, password_salt, password_hash, password_iterations, created_at, updated_at)
                VALUES ('kept', x'00', x'00', 1, 0, 0)
                """)
        }
        let adopted = try SandboxDatabase(path: path, tokenTTL: 60)
        #expect(try adopted.user(login: "kept") != nil)
        #expect(adopted.schemaVersion == SandboxDatabase.migrator.migrations.count)
        #expect(try adopted.db.queryFirst("SELECT 1 FROM sqlite_schema WHERE name = 'schema_version'") { _ in true } == nil)
    }

    /// A `--db` file written before tags were a JSON array (`,a,b,`) opens with every user's
    /// tags as they were, found by tag as before, and nothing else of the users changed.
    @Test func tagsStoredAsCommaTextReadTheSameAfterTheUpgrade() throws {
        let path = "/tmp/sandbox-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let steps = SandboxDatabase.migrator.migrations
        let before = try #require(steps.firstIndex { $0.name == "user-tags-json" })
        do {
            let old = try Database(path: path)
            try Migrator(Array(steps.prefix(before))).migrate(old)
            for (login, tags) in [("ann", ",vip,Beta_1,"), ("bob", nil), ("cy", ",50%,")] as [(String, String?)] {
                try old.run("""
                    INSERT INTO users (login, password_salt, password_hash, password_iterations, created_at, updated_at, tags)
                    VALUES (?, x'00', x'00', 1, 10, 20, ?)
                    """, [.text(login), .optional(tags)])
            }
        }
        let upgraded = try SandboxDatabase(path: path, tokenTTL: 60)
        #expect(upgraded.schemaVersion == steps.count)
        let ann = try #require(try upgraded.user(login: "ann"))
        #expect(ann.profile.tags == ["vip", "Beta_1"] && ann.createdAt == 10 && ann.updatedAt == 20)
        #expect(try upgraded.user(login: "bob")?.profile.tags == [])
        #expect(try upgraded.user(login: "cy")?.profile.tags == ["50%"])
        #expect(try upgraded.db.queryFirst("SELECT tags FROM users WHERE login = 'ann'") { $0["tags"].textValue } == #"["vip","Beta_1"]"#)
        // By tag, ASCII case ignored and `%` or `_` no wildcard, as the LIKE on `,a,b,` found them.
        #expect(try upgraded.users(taggedWithAny: ["VIP"], page: 1, perPage: 10).items.compactMap(\.login) == ["ann"])
        #expect(try upgraded.users(taggedWithAny: ["beta_1", "50%"], page: 1, perPage: 10).items.compactMap(\.login) == ["ann", "cy"])
        #expect(try upgraded.users(taggedWithAny: ["beta%", "5"], page: 1, perPage: 10).total == 0)
    }

    @Test func fileDatabaseUsesWALAndReopensWithoutRemigrating() throws {
        let path = "/tmp/sandbox-db-test-\(UInt64.random(in: 0...UInt64.max)).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        do {
            let db = try SandboxDatabase(path: path, tokenTTL: 60)
            _ = try db.insertUser(newUser("kept"))
            #expect(try db.db.queryFirst("PRAGMA journal_mode") { $0["journal_mode"].textValue } == "wal")
        }
        let again = try SandboxDatabase(path: path, tokenTTL: 60)
        #expect(try again.user(login: "kept") != nil)
        #expect(again.schemaVersion == SandboxDatabase.migrator.migrations.count)
    }

    @Test func passwordsAreStoredHashedNotInClear() throws {
        let db = try makeDatabase()
        let user = try db.insertUser(newUser("ann", "Clear-Text-9"))
        let row = try #require(try db.db.queryFirst("SELECT * FROM users WHERE id = ?", [.int(user.id)]) { s in
            (0..<s.columnCount).map(s.value)
        })
        #expect(row.count > 10)
        for value in row {
            if case .text(let s) = value { #expect(!s.contains("Clear-Text-9")) }
            if case .blob(let b) = value { #expect(!String(decoding: b, as: UTF8.self).contains("Clear-Text-9")) }
        }
        #expect(try db.checkPassword(userId: user.id, "Clear-Text-9"))
        #expect(try !db.checkPassword(userId: user.id, "Clear-Text-8"))
    }

    @Test func slidingExpiry() throws {
        let clock = Clock()
        let db = try makeDatabase(ttl: 10, clock: clock)
        let s = try db.createSession(applicationId: 1, userId: 0, nonce: 1, timestamp: 1)
        #expect(s.token.count == 40 && s.token.allSatisfy(\.isHexDigit))
        for _ in 0..<5 {
            clock.now += 8
            #expect(try db.useSession(token: s.token) != nil)
        }
        clock.now += 10.5
        #expect(try db.useSession(token: s.token) == nil)
    }

    @Test func chatAuthenticationByPasswordOrLiveUserToken() throws {
        let clock = Clock()
        let db = try makeDatabase(ttl: 10, clock: clock)
        let ann = try db.insertUser(newUser("ann", "annpassword"))
        let bob = try db.insertUser(newUser("bob", "bobpassword"))
        let session = try db.createSession(applicationId: 1, userId: ann.id, nonce: 1, timestamp: 1)
        let appSession = try db.createSession(applicationId: 1, userId: 0, nonce: 2, timestamp: 1)
        #expect(db.authenticateChat(userId: ann.id, secret: "annpassword"))
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))
        #expect(!db.authenticateChat(userId: bob.id, secret: session.token))
        #expect(!db.authenticateChat(userId: bob.id, secret: "annpassword"))
        #expect(!db.authenticateChat(userId: 0, secret: appSession.token))
        clock.now += 8
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))  // slides
        clock.now += 8
        #expect(db.authenticateChat(userId: ann.id, secret: session.token))
        clock.now += 11
        #expect(!db.authenticateChat(userId: ann.id, secret: session.token))
    }

    @Test func replayedNonceIsRefused() throws {
        let db = try makeDatabase()
        #expect(try db.recordNonce("7", timestamp: 1_000_000, window: 3600))
        #expect(try !db.recordNonce("7", timestamp: 1_000_000, window: 3600))
        #expect(try db.recordNonce("7", timestamp: 1_000_001, window: 3600))
    }

    @Test func unopenableFileFailsWithThePath() {
        let error = #expect(throws: SQLiteError.self) { try SandboxDatabase(path: "/nonexistent-dir/x.db", tokenTTL: 60) }
        #expect(error?.message.contains("/nonexistent-dir/x.db") == true)
    }
}
