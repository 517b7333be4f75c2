// The sandbox's storage: users, sessions and used nonces, in SQLite.

/// A named schema step; applied once, in order, and recorded in `schema_version`.
struct SchemaMigration {
    var name: String
    var sql: String
}

/// Users, sessions and nonces. Used only on the event-loop thread (not Sendable).
final class SandboxDatabase: ChatAuthenticator {
    /// Append only: each schema change is a new step at the end.
    static let migrations: [SchemaMigration] = [
        SchemaMigration(name: "users-sessions-nonces", sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                login TEXT NOT NULL UNIQUE COLLATE NOCASE,
                email TEXT UNIQUE COLLATE NOCASE,
                full_name TEXT, phone TEXT, website TEXT,
                external_user_id INTEGER, custom_data TEXT,
                password_salt BLOB NOT NULL, password_hash BLOB NOT NULL, password_iterations INTEGER NOT NULL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL, last_request_at REAL
            );
            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                token TEXT NOT NULL UNIQUE,
                application_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL DEFAULT 0,
                nonce INTEGER NOT NULL, ts INTEGER NOT NULL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL, expires_at REAL NOT NULL
            );
            CREATE INDEX sessions_user ON sessions(user_id);
            CREATE TABLE used_nonces (
                nonce TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (nonce, ts)
            );
            """),
        // Issue 3: dialogs and messages. `seq` orders rows in insertion order (ties of one second).
        SchemaMigration(name: "dialogs-messages", sql: """
            CREATE TABLE dialogs (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                type INTEGER NOT NULL, name TEXT, photo TEXT, user_id INTEGER NOT NULL,
                last_message TEXT, last_message_date_sent INTEGER, last_message_id TEXT, last_message_user_id INTEGER,
                created_at REAL NOT NULL, updated_at REAL NOT NULL
            );
            CREATE TABLE dialog_occupants (
                dialog_id TEXT NOT NULL REFERENCES dialogs(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL, position INTEGER NOT NULL,
                PRIMARY KEY (dialog_id, user_id)
            );
            CREATE INDEX dialog_occupants_user ON dialog_occupants(user_id);
            CREATE TABLE messages (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                dialog_id TEXT NOT NULL REFERENCES dialogs(id) ON DELETE CASCADE,
                body TEXT NOT NULL, sender_id INTEGER NOT NULL, recipient_id INTEGER NOT NULL,
                date_sent INTEGER NOT NULL, attachments TEXT NOT NULL, markable INTEGER NOT NULL, custom TEXT NOT NULL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL
            );
            CREATE INDEX messages_dialog_order ON messages(dialog_id, date_sent, seq);
            CREATE TABLE message_reads (
                message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)
            );
            CREATE TABLE message_deliveries (
                message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)
            );
            """),
    ]

    let connection: SQLiteConnection
    let tokenTTL: Double
    private let now: () -> Double

    /// `path` nil: in memory. Files use WAL.
    init(path: String?, tokenTTL: Double, now: @escaping () -> Double = SandboxTime.now) throws {
        connection = try SQLiteConnection(path: path ?? ":memory:")
        self.tokenTTL = tokenTTL
        self.now = now
        if path != nil && path != ":memory:" {
            try connection.execute("PRAGMA journal_mode=WAL")
        }
        try connection.execute("PRAGMA foreign_keys=ON")
        try migrate()
    }

    /// Applies the migrations not yet recorded in `schema_version`.
    private func migrate() throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_version (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)
            """)
        let current = try connection.query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version").first?.int("v") ?? 0
        for (i, migration) in SandboxDatabase.migrations.enumerated() where i + 1 > current {
            try connection.transaction {
                try connection.execute(migration.sql)
                try connection.run("INSERT INTO schema_version(version, name, applied_at) VALUES (?, ?, ?)",
                                   [i + 1, migration.name, now()])
            }
        }
    }

    var schemaVersion: Int {
        (try? connection.query("SELECT MAX(version) AS v FROM schema_version").first?.int("v")) ?? 0
    }

    // MARK: users

    private static let userColumns = """
        id, login, email, full_name, phone, website, external_user_id, custom_data,
        created_at, updated_at, last_request_at
        """

    private static func user(from row: SQLiteRow) -> UserRecord {
        UserRecord(id: row.int("id") ?? 0, login: row.string("login") ?? "", fullName: row.string("full_name"),
                   email: row.string("email"), phone: row.string("phone"), website: row.string("website"),
                   externalUserId: row.int("external_user_id"), customData: row.string("custom_data"),
                   createdAt: row.double("created_at") ?? 0, updatedAt: row.double("updated_at") ?? 0,
                   lastRequestAt: row.double("last_request_at"))
    }

    func isLoginTaken(_ login: String) throws -> Bool {
        try !connection.query("SELECT 1 FROM users WHERE login = ?", [login]).isEmpty
    }

    func isEmailTaken(_ email: String) throws -> Bool {
        try !connection.query("SELECT 1 FROM users WHERE email = ?", [email]).isEmpty
    }

    /// Inserts a validated user, hashing the password.
    func insertUser(_ new: NewUser) throws -> UserRecord {
        let hash = PasswordHash(password: new.password)
        let t = now()
        try connection.run("""
            INSERT INTO users (login, email, full_name, phone, website, external_user_id, custom_data,
                password_salt, password_hash, password_iterations, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [new.login, new.email, new.fullName, new.phone, new.website, new.externalUserId, new.customData,
                  hash.salt, hash.hash, hash.iterations, t, t])
        let id = connection.lastInsertRowID
        guard let user = try user(id: id) else { throw SQLiteError(code: 0, message: "inserted user vanished", sql: nil) }
        return user
    }

    func user(id: Int) throws -> UserRecord? {
        try connection.query("SELECT \(Self.userColumns) FROM users WHERE id = ?", [id]).first.map(Self.user(from:))
    }

    func user(login: String) throws -> UserRecord? {
        try connection.query("SELECT \(Self.userColumns) FROM users WHERE login = ?", [login]).first.map(Self.user(from:))
    }

    func user(email: String) throws -> UserRecord? {
        try connection.query("SELECT \(Self.userColumns) FROM users WHERE email = ?", [email]).first.map(Self.user(from:))
    }

    /// One page of users ordered by id, optionally limited to `ids`; with the total count.
    func users(page: Int, perPage: Int, ids: [Int]?) throws -> (total: Int, items: [UserRecord]) {
        var condition = ""
        var arguments: [any SQLiteBindable] = []
        if let ids {
            condition = "WHERE id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
            arguments = ids
            if ids.isEmpty { condition = "WHERE 0" }
        }
        let total = try connection.query("SELECT COUNT(*) AS n FROM users \(condition)", arguments).first?.int("n") ?? 0
        let rows = try connection.query(
            "SELECT \(Self.userColumns) FROM users \(condition) ORDER BY id LIMIT ? OFFSET ?",
            arguments + [perPage, (page - 1) * perPage])
        return (total, rows.map(Self.user(from:)))
    }

    /// True when `password` is the user's password.
    func checkPassword(userId: Int, _ password: String) throws -> Bool {
        guard let row = try connection.query(
            "SELECT password_salt, password_hash, password_iterations FROM users WHERE id = ?", [userId]).first,
              let salt = row.blob("password_salt"), let hash = row.blob("password_hash"),
              let iterations = row.int("password_iterations") else { return false }
        return PasswordHash(salt: salt, iterations: iterations, hash: hash).matches(password)
    }

    func touchUser(_ userId: Int) throws {
        try connection.run("UPDATE users SET last_request_at = ? WHERE id = ?", [now(), userId])
    }

    // MARK: sessions

    private static func session(from row: SQLiteRow) -> SessionRecord {
        SessionRecord(id: row.int("id") ?? 0, token: row.string("token") ?? "",
                      applicationId: row.int("application_id") ?? 0, userId: row.int("user_id") ?? 0,
                      nonce: row.int("nonce") ?? 0, timestamp: row.int("ts") ?? 0,
                      createdAt: row.double("created_at") ?? 0, updatedAt: row.double("updated_at") ?? 0,
                      expiresAt: row.double("expires_at") ?? 0)
    }

    func createSession(applicationId: Int, userId: Int, nonce: Int, timestamp: Int) throws -> SessionRecord {
        let t = now()
        try connection.run("DELETE FROM sessions WHERE expires_at < ?", [t])
        let token = SecureRandom.token()
        try connection.run("""
            INSERT INTO sessions (token, application_id, user_id, nonce, ts, created_at, updated_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [token, applicationId, userId, nonce, timestamp, t, t, t + tokenTTL])
        if userId != 0 { try touchUser(userId) }
        return SessionRecord(id: connection.lastInsertRowID, token: token, applicationId: applicationId,
                             userId: userId, nonce: nonce, timestamp: timestamp,
                             createdAt: t, updatedAt: t, expiresAt: t + tokenTTL)
    }

    /// The live session for `token`, its expiry slid to now + TTL; nil when unknown or expired.
    func useSession(token: String) throws -> SessionRecord? {
        guard var session = try connection.query("SELECT * FROM sessions WHERE token = ?", [token]).first
            .map(Self.session(from:)) else { return nil }
        let t = now()
        guard session.expiresAt > t else {
            try connection.run("DELETE FROM sessions WHERE id = ?", [session.id])
            return nil
        }
        session.expiresAt = t + tokenTTL
        try connection.run("UPDATE sessions SET expires_at = ? WHERE id = ?", [session.expiresAt, session.id])
        if session.userId != 0 { try touchUser(session.userId) }
        return session
    }

    /// Makes the session a user session (`userId` > 0) or an application session again (0).
    func setSessionUser(sessionId: Int, userId: Int) throws {
        try connection.run("UPDATE sessions SET user_id = ?, updated_at = ? WHERE id = ?", [userId, now(), sessionId])
        if userId != 0 { try touchUser(userId) }
    }

    func deleteSession(id: Int) throws {
        try connection.run("DELETE FROM sessions WHERE id = ?", [id])
    }

    /// Records a timestamp+nonce pair; false when it was seen before (a replay).
    /// Pairs older than the clock window can be forgotten: they fail the clock check anyway.
    func recordNonce(_ nonce: String, timestamp: Int, window: Double) throws -> Bool {
        try connection.run("DELETE FROM used_nonces WHERE ts < ?", [Int(now() - window) - 1])
        try connection.run("INSERT OR IGNORE INTO used_nonces(nonce, ts) VALUES (?, ?)", [nonce, timestamp])
        return connection.changes == 1
    }

    // MARK: ChatAuthenticator

    /// `secret` is the user's password or a live user-session token of that user (sliding it).
    func authenticateChat(userId: Int, secret: String) -> Bool {
        do {
            if secret.utf8.count == 40,
               let session = try connection.query("SELECT user_id FROM sessions WHERE token = ?", [secret]).first,
               session.int("user_id") == userId, userId != 0,
               try useSession(token: secret) != nil {
                return true
            }
            return try checkPassword(userId: userId, secret)
        } catch {
            return false
        }
    }
}

@available(*, unavailable) extension SandboxDatabase: Sendable {}
