// The sandbox's storage: users, sessions and used nonces, in SQLite (through SQLiteStore).
internal import SQLiteStore
import SandboxClock
import SandboxCrypto

/// Users, sessions and nonces. Used only on the event-loop thread (not Sendable).
package final class SandboxDatabase {
    /// Append only: each schema change is a new step at the end.
    static let migrator = Migrator([
        legacyAware("users-sessions-nonces", sql: """
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
        // Dialogs and messages. `seq` orders rows in insertion order (ties of one second).
        legacyAware("dialogs-messages", sql: """
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
        Migration("drop-legacy-schema-version", sql: "DROP TABLE IF EXISTS schema_version"),
        // Messages a user deleted for themselves only (`DELETE` without `force`).
        Migration("message-hidden", sql: """
            CREATE TABLE message_hidden (
                message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)
            );
            """),
        // A user may sign up with an email alone, as on the service: login becomes
        // optional (SQLite changes a column's constraints only by copying the table).
        Migration("login-optional", sql: """
            CREATE TABLE users_new (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                login TEXT UNIQUE COLLATE NOCASE,
                email TEXT UNIQUE COLLATE NOCASE,
                full_name TEXT, phone TEXT, website TEXT,
                external_user_id INTEGER, custom_data TEXT,
                password_salt BLOB NOT NULL, password_hash BLOB NOT NULL, password_iterations INTEGER NOT NULL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL, last_request_at REAL,
                CHECK (login IS NOT NULL OR email IS NOT NULL)
            );
            INSERT INTO users_new SELECT * FROM users;
            DROP TABLE users;
            ALTER TABLE users_new RENAME TO users;
            """),
        // Blobs (the content API), which messages refer to which blob (who may
        // download a private one), and the secret that signs storage URLs. Messages stored
        // before this step get their references from their attachments' `id`s.
        Migration("blobs", sql: """
            CREATE TABLE blobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                uid TEXT NOT NULL UNIQUE,
                owner_id INTEGER NOT NULL,
                content_type TEXT NOT NULL, name TEXT NOT NULL, public INTEGER NOT NULL,
                size INTEGER, completed_at REAL,
                created_at REAL NOT NULL, updated_at REAL NOT NULL
            );
            CREATE TABLE message_blobs (
                message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                blob_uid TEXT NOT NULL,
                PRIMARY KEY (blob_uid, message_id)
            );
            CREATE INDEX message_blobs_message ON message_blobs(message_id);
            INSERT OR IGNORE INTO message_blobs (message_id, blob_uid)
                SELECT m.id, json_extract(p.value, '$[1]')
                FROM messages m, json_each(m.attachments) a, json_each(a.value) p
                WHERE json_extract(p.value, '$[0]') = 'id' AND json_extract(p.value, '$[1]') != '';
            CREATE TABLE sandbox_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
            """),
        // The id a sender gave a message that is stored under another (a plain XMPP
        // client's, which is no ObjectId), to hand it back (XEP-0359 origin-id) and spot resends.
        Migration("message-origin-id", sql: """
            ALTER TABLE messages ADD COLUMN origin_id TEXT;
            CREATE INDEX messages_sender_origin ON messages(sender_id, origin_id) WHERE origin_id IS NOT NULL;
            """),
        // When each user's last chat resource went offline (XEP-0012 last activity).
        Migration("chat-last-seen", sql: """
            CREATE TABLE chat_last_seen (user_id INTEGER PRIMARY KEY, at REAL NOT NULL);
            """),
        // The dialogs a user muted (`PUT /chat/Dialog/{id}/notifications.json` with
        // `enabled=0`); a dialog without a row notifies, the service's default.
        Migration("dialog-muted", sql: """
            CREATE TABLE dialog_muted (
                dialog_id TEXT NOT NULL REFERENCES dialogs(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL, PRIMARY KEY (dialog_id, user_id)
            );
            """),
        // A user's picture, the blob their avatar is (`PUT /users/{id}.json`).
        Migration("user-blob-id", sql: "ALTER TABLE users ADD COLUMN blob_id INTEGER"),
        // A user's tags (`user[tag_list]`); stored as `,a,b,` until "user-tags-json".
        Migration("user-tags", sql: "ALTER TABLE users ADD COLUMN tags TEXT"),
        // The reference's social ids, which `GET /users/by_facebook_id.json` and the like find.
        Migration("user-social-ids", sql: """
            ALTER TABLE users ADD COLUMN facebook_id TEXT;
            ALTER TABLE users ADD COLUMN twitter_id TEXT;
            ALTER TABLE users ADD COLUMN twitter_digits_id TEXT;
            """),
        // Custom objects. A class's fields are made by the first values written to
        // them; a record keeps its fields and permissions as JSON. A dialog's custom data is a
        // record (`data_id`).
        Migration("custom-objects", sql: """
            CREATE TABLE custom_classes (name TEXT PRIMARY KEY, fields TEXT NOT NULL, created_at REAL NOT NULL);
            CREATE TABLE custom_objects (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                class_name TEXT NOT NULL,
                user_id INTEGER NOT NULL,
                parent_id TEXT,
                fields TEXT NOT NULL,
                permissions TEXT NOT NULL,
                created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
            );
            CREATE INDEX custom_objects_class ON custom_objects(class_name, seq);
            CREATE INDEX custom_objects_parent ON custom_objects(parent_id) WHERE parent_id IS NOT NULL;
            ALTER TABLE dialogs ADD COLUMN data_id TEXT;
            """),
        // Push subscriptions (one per device and channel), events, every delivery
        // the sandbox made in place of APNs, FCM or mail (kept when their event is deleted:
        // they are what was pushed), and the address books, one global and one per device.
        Migration("push-address-book", sql: """
            CREATE TABLE push_subscriptions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL,
                channel TEXT NOT NULL, environment TEXT NOT NULL, platform TEXT NOT NULL,
                udid TEXT NOT NULL, token TEXT NOT NULL, bundle_identifier TEXT,
                created_at REAL NOT NULL, updated_at REAL NOT NULL,
                UNIQUE (udid, channel)
            );
            CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
            CREATE TABLE push_events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL,
                notification_type TEXT NOT NULL, push_type TEXT, environment TEXT NOT NULL,
                event_type TEXT NOT NULL, message TEXT NOT NULL, name TEXT,
                date INTEGER, end_date INTEGER, period INTEGER,
                recipients TEXT NOT NULL,
                active INTEGER NOT NULL, occurred_count INTEGER NOT NULL,
                next_at INTEGER, last_occurred_at REAL, last_delivery_count INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL, updated_at REAL NOT NULL
            );
            CREATE INDEX push_events_user ON push_events(user_id);
            CREATE INDEX push_events_due ON push_events(next_at) WHERE next_at IS NOT NULL;
            CREATE TABLE push_deliveries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                event_id INTEGER NOT NULL, subscription_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
                channel TEXT NOT NULL, environment TEXT NOT NULL, platform TEXT NOT NULL,
                udid TEXT NOT NULL, token TEXT NOT NULL, payload TEXT NOT NULL,
                delivered_at REAL NOT NULL
            );
            CREATE INDEX push_deliveries_event ON push_deliveries(event_id);
            CREATE INDEX push_deliveries_user ON push_deliveries(user_id);
            CREATE TABLE address_book (
                user_id INTEGER NOT NULL,
                udid TEXT NOT NULL,
                phone TEXT NOT NULL, name TEXT NOT NULL,
                PRIMARY KEY (user_id, udid, phone)
            );
            """),
        // A user's tags as a JSON array (`["a","b"]`), a list SQL reads with
        // json_each, instead of the text `,a,b,` every reader split and every search matched
        // with LIKE. The users' rows are otherwise untouched (not even `updated_at`).
        Migration("user-tags-json") { db in
            let tagged = try db.query("SELECT id, tags FROM users WHERE tags IS NOT NULL") {
                (id: $0["id"].intValue ?? 0, tags: ($0["tags"].textValue ?? "").split(separator: ",").map(String.init))
            }
            for user in tagged {
                try db.run("UPDATE users SET tags = ? WHERE id = ?", [.optional(UserProfile.stored(tags: user.tags)), .int(user.id)])
            }
        },
        // Contact lists (RFC 6121 rosters): a user's item for each contact, or a subscription
        // request not yet answered; and privacy lists (XEP-0016), their rules, and the default.
        Migration("roster-privacy", sql: """
            CREATE TABLE roster_items (
                user_id INTEGER NOT NULL, contact_id INTEGER NOT NULL,
                subscription TEXT NOT NULL, ask_out INTEGER NOT NULL, pending_in INTEGER NOT NULL,
                listed INTEGER NOT NULL, name TEXT, groups TEXT NOT NULL,
                PRIMARY KEY (user_id, contact_id)
            );
            CREATE TABLE privacy_lists (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL, name TEXT NOT NULL,
                UNIQUE (user_id, name)
            );
            CREATE TABLE privacy_items (
                user_id INTEGER NOT NULL, list_name TEXT NOT NULL, position INTEGER NOT NULL,
                type TEXT, value TEXT, action TEXT NOT NULL, kinds TEXT NOT NULL,
                PRIMARY KEY (user_id, list_name, position)
            );
            CREATE TABLE privacy_defaults (user_id INTEGER PRIMARY KEY, list_name TEXT NOT NULL);
            """),
    ])

    /// A step that a database file of an earlier sandbox, which recorded its steps
    /// by the same names in its own `schema_version` table, already has.
    private static func legacyAware(_ name: String, sql: String) -> Migration {
        Migration(name) { db in
            let hasLegacyTable = try db.queryFirst(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'") { _ in true } ?? false
            if hasLegacyTable,
               try db.queryFirst("SELECT 1 FROM schema_version WHERE name = ?", [.text(name)], { _ in true }) != nil {
                return
            }
            try db.execute(sql)
        }
    }

    let db: Database
    package let tokenTTL: Double
    let now: () -> Double
    /// Wrong passwords lately, for REST logins and chat logins alike.
    package var passwordAttempts = PasswordAttempts()
    /// PBKDF2 rounds for passwords set from now on.
    package var passwordIterations = PasswordHash.defaultIterations
    /// What chat routing keeps between messages, for every `ChatStore` on this database.
    let routingCache = RoutingCache()
    /// Whether the disk was full at the last write, for every store on this database.
    package let space = StorageSpace()

    /// `path` nil: in memory. Files use WAL and are private to the user (0600).
    package init(path: String?, tokenTTL: Double, now: @escaping () -> Double = SandboxTime.now) throws {
        db = try Database(path: path ?? ":memory:")
        self.tokenTTL = tokenTTL
        self.now = now
        try db.execute("PRAGMA foreign_keys=ON")
        // Savepoints (a message's rows inside the turn's transaction) keep their undo pages
        // here: in memory, not in a temporary file written for every message.
        try db.execute("PRAGMA temp_store=MEMORY")
        try Self.migrator.migrate(db)
    }

    /// How many schema steps the database has.
    var schemaVersion: Int { (try? db.userVersion()) ?? 0 }

    // MARK: users

    static let userColumns = """
        id, login, email, full_name, phone, website, external_user_id, custom_data,
        created_at, updated_at, last_request_at, blob_id, tags, facebook_id, twitter_id, twitter_digits_id
        """

    static func user(from row: Statement) -> UserRecord {
        UserRecord(id: row["id"].intValue ?? 0, login: row["login"].textValue,
                   profile: UserProfile(fullName: row["full_name"].textValue, email: row["email"].textValue, phone: row["phone"].textValue,
                                        website: row["website"].textValue, externalUserId: row["external_user_id"].intValue,
                                        customData: row["custom_data"].textValue, blobId: row["blob_id"].intValue,
                                        tags: UserProfile.tags(stored: row["tags"].textValue),
                                        facebookId: row["facebook_id"].textValue, twitterId: row["twitter_id"].textValue,
                                        twitterDigitsId: row["twitter_digits_id"].textValue),
                   createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0,
                   lastRequestAt: row["last_request_at"].doubleValue)
    }

    package func isLoginTaken(_ login: String) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM users WHERE login = ?", [.text(login)]) { _ in true } ?? false
    }

    package func isEmailTaken(_ email: String) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM users WHERE email = ?", [.text(email)]) { _ in true } ?? false
    }

    /// Inserts a validated user, hashing the password.
    package func insertUser(_ new: NewUser) throws -> UserRecord {
        let hash = PasswordHash(password: new.password, iterations: passwordIterations)
        let t = now()
        try db.run("""
            INSERT INTO users (login, email, full_name, phone, website, external_user_id, custom_data,
                password_salt, password_hash, password_iterations, created_at, updated_at, blob_id, tags,
                facebook_id, twitter_id, twitter_digits_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.optional(new.login), .optional(new.profile.email), .optional(new.profile.fullName), .optional(new.profile.phone),
                  .optional(new.profile.website), .optional(new.profile.externalUserId), .optional(new.profile.customData),
                  .blob(hash.salt), .blob(hash.hash), .int(hash.iterations), .real(t), .real(t),
                  .optional(new.profile.blobId), .optional(UserProfile.stored(tags: new.profile.tags)),
                  .optional(new.profile.facebookId), .optional(new.profile.twitterId), .optional(new.profile.twitterDigitsId)])
        let id = Int(db.lastInsertRowID)
        guard let user = try user(id: id) else {
            throw SQLiteError(extendedCode: .error, message: "the user just inserted (id \(id)) cannot be read back")
        }
        return user
    }

    /// Sets (or with nil clears) the blob of a user's picture; the user as stored now.
    package func setAvatar(userId: Int, blobId: Int?) throws -> UserRecord? {
        try db.run("UPDATE users SET blob_id = ?, updated_at = ? WHERE id = ?", [.optional(blobId), .real(now()), .int(userId)])
        return try user(id: userId)
    }

    package func user(id: Int) throws -> UserRecord? {
        try db.queryFirst("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.int(id)], Self.user(from:))
    }

    package func user(login: String) throws -> UserRecord? {
        try db.queryFirst("SELECT \(Self.userColumns) FROM users WHERE login = ?", [.text(login)], Self.user(from:))
    }

    package func user(email: String) throws -> UserRecord? {
        try db.queryFirst("SELECT \(Self.userColumns) FROM users WHERE email = ?", [.text(email)], Self.user(from:))
    }

    /// One page of users ordered by id, optionally limited to `ids`; with the total count.
    package func users(page: Int, perPage: Int, ids: [Int]?) throws -> (total: Int, items: [UserRecord]) {
        var condition = ""
        var arguments: [SQLiteValue] = []
        if let ids {
            condition = "WHERE id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
            arguments = ids.map(SQLiteValue.int)
            if ids.isEmpty { condition = "WHERE 0" }
        }
        let total = try db.queryFirst("SELECT COUNT(*) FROM users \(condition)", arguments) { $0.int(0) } ?? 0
        let users = try db.query(
            "SELECT \(Self.userColumns) FROM users \(condition) ORDER BY id LIMIT ? OFFSET ?",
            arguments + [.int(perPage), .int((page - 1) * perPage)], Self.user(from:))
        return (total, users)
    }

    /// One page of the users whose full name contains `text` (ASCII case ignored, `%`
    /// and `_` taken literally), ordered by id; with the total count.
    package func users(fullNameContaining text: String, page: Int, perPage: Int) throws -> (total: Int, items: [UserRecord]) {
        var pattern = "%"
        for character in text {
            if character == "\\" || character == "%" || character == "_" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern += "%"
        let condition = "WHERE full_name LIKE ? ESCAPE '\\'"
        let total = try db.queryFirst("SELECT COUNT(*) FROM users \(condition)", [.text(pattern)]) { $0.int(0) } ?? 0
        let users = try db.query(
            "SELECT \(Self.userColumns) FROM users \(condition) ORDER BY id LIMIT ? OFFSET ?",
            [.text(pattern), .int(perPage), .int((page - 1) * perPage)], Self.user(from:))
        return (total, users)
    }

    /// Whether `password` is the user's, or too many wrong ones came lately for the user or
    /// from `address` (then it is not even checked: each check costs a key derivation). A
    /// wrong one counts against both; a right one against neither.
    package func verifyPassword(userId: Int, _ password: String, from address: String? = nil) throws -> PasswordVerdict {
        if let address, let seconds = passwordAttempts.retryAfter(address: address, now: now()) { return .throttled(retryAfter: seconds) }
        if let seconds = passwordAttempts.retryAfter(userId: userId, now: now()) { return .throttled(retryAfter: seconds) }
        if try checkPassword(userId: userId, password) { return .accepted }
        passwordAttempts.recordFailure(userId: userId, now: now())
        if let address { passwordAttempts.recordFailure(address: address, now: now()) }
        return .refused
    }

    /// A login of nobody (no such login, email or id) from `address`: refused, and counted
    /// against the address like a wrong password; throttled while the address is.
    package func refuseUnknownLogin(from address: String?) -> PasswordVerdict {
        guard let address else { return .refused }
        if let seconds = passwordAttempts.retryAfter(address: address, now: now()) { return .throttled(retryAfter: seconds) }
        passwordAttempts.recordFailure(address: address, now: now())
        return .refused
    }

    /// True when `password` is the user's password.
    func checkPassword(userId: Int, _ password: String) throws -> Bool {
        let stored = try db.queryFirst(
            "SELECT password_salt, password_hash, password_iterations FROM users WHERE id = ?", [.int(userId)]) { row in
            (salt: row["password_salt"].blobValue, hash: row["password_hash"].blobValue, iterations: row["password_iterations"].intValue)
        }
        guard let stored, let salt = stored.salt, let hash = stored.hash, let iterations = stored.iterations else { return false }
        return PasswordHash(salt: salt, iterations: iterations, hash: hash).matches(password)
    }

    func touchUser(_ userId: Int) throws {
        try db.run("UPDATE users SET last_request_at = ? WHERE id = ?", [.real(now()), .int(userId)])
    }

    // MARK: sessions

    private static func session(from row: Statement) -> SessionRecord {
        SessionRecord(id: row["id"].intValue ?? 0, token: row["token"].textValue ?? "",
                      applicationId: row["application_id"].intValue ?? 0, userId: row["user_id"].intValue ?? 0,
                      nonce: row["nonce"].intValue ?? 0, timestamp: row["ts"].intValue ?? 0,
                      createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0,
                      expiresAt: row["expires_at"].doubleValue ?? 0)
    }

    package func createSession(applicationId: Int, userId: Int, nonce: Int, timestamp: Int) throws -> SessionRecord {
        let t = now()
        try db.run("DELETE FROM sessions WHERE expires_at < ?", [.real(t)])
        let token = SecureRandom.token()
        try db.run("""
            INSERT INTO sessions (token, application_id, user_id, nonce, ts, created_at, updated_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(token), .int(applicationId), .int(userId), .int(nonce), .int(timestamp),
                  .real(t), .real(t), .real(t + tokenTTL)])
        let id = Int(db.lastInsertRowID)
        if userId != 0 { try touchUser(userId) }
        return SessionRecord(id: id, token: token, applicationId: applicationId,
                             userId: userId, nonce: nonce, timestamp: timestamp,
                             createdAt: t, updatedAt: t, expiresAt: t + tokenTTL)
    }

    /// The live session for `token`, its expiry slid to now + TTL; nil when unknown or expired.
    package func useSession(token: String) throws -> SessionRecord? {
        guard var session = try db.queryFirst("SELECT * FROM sessions WHERE token = ?", [.text(token)], Self.session(from:))
        else { return nil }
        let t = now()
        guard session.expiresAt > t else {
            try db.run("DELETE FROM sessions WHERE id = ?", [.int(session.id)])
            return nil
        }
        session.expiresAt = t + tokenTTL
        try db.run("UPDATE sessions SET expires_at = ? WHERE id = ?", [.real(session.expiresAt), .int(session.id)])
        if session.userId != 0 { try touchUser(session.userId) }
        return session
    }

    /// Makes the session a user session (`userId` > 0) or an application session again (0).
    package func setSessionUser(sessionId: Int, userId: Int) throws {
        try db.run("UPDATE sessions SET user_id = ?, updated_at = ? WHERE id = ?", [.int(userId), .real(now()), .int(sessionId)])
        if userId != 0 { try touchUser(userId) }
    }

    package func deleteSession(id: Int) throws {
        try db.run("DELETE FROM sessions WHERE id = ?", [.int(id)])
    }

    /// Records a timestamp+nonce pair; false when it was seen before (a replay).
    /// Pairs older than the clock window can be forgotten: they fail the clock check anyway.
    package func recordNonce(_ nonce: String, timestamp: Int, window: Double) throws -> Bool {
        try db.run("DELETE FROM used_nonces WHERE ts < ?", [.int(Int(now() - window) - 1)])
        return try db.run("INSERT OR IGNORE INTO used_nonces(nonce, ts) VALUES (?, ?)", [.text(nonce), .int(timestamp)]) == 1
    }

    // MARK: chat logins

    /// `secret` is the user's password or a live user-session token of that user (sliding it).
    package func authenticateChat(userId: Int, secret: String) -> Bool {
        checkChatCredentials(userId: userId, secret: secret) == .accepted
    }

    /// A token is always checked; a password only while the user is not rate limited.
    package func checkChatCredentials(userId: Int, secret: String) -> ChatAuthentication {
        checkChatCredentials(userId: userId, secret: secret, from: nil)
    }

    /// As `checkChatCredentials(userId:secret:)`, wrong passwords counted against `address`
    /// too (the client's; nil: by user only).
    package func checkChatCredentials(userId: Int, secret: String, from address: String?) -> ChatAuthentication {
        do {
            if SessionRecord.looksLikeToken(secret), userId != 0 {
                if try db.queryFirst("SELECT user_id FROM sessions WHERE token = ?", [.text(secret)], { $0.int(0) }) == userId,
                   try useSession(token: secret) != nil {
                    return .accepted
                }
                // A session token that has ended (a client reconnecting with the token it logged in
                // with, as QuickBlox's SDKs do every few seconds): nobody guessed a password, so it
                // is refused without counting; a user whose password has a token's shape still
                // gets in with it while not limited.
                if passwordAttempts.retryAfter(userId: userId, now: now()) == nil, try checkPassword(userId: userId, secret) {
                    return .accepted
                }
                return .refused
            }
            // An unknown user has no password to guess: counted against the address only.
            guard try user(id: userId) != nil else { return refuseUnknownLogin(from: address) == .refused ? .refused : .throttled }
            switch try verifyPassword(userId: userId, secret, from: address) {
            case .accepted: return .accepted
            case .refused: return .refused
            case .throttled: return .throttled
            }
        } catch {
            return .refused
        }
    }
}

// MARK: secrets

extension SandboxDatabase {
    /// What is kept under `name` in `sandbox_secrets` (a TLS identity, say), if anything.
    package func secret(named name: String) throws -> [UInt8]? {
        try db.queryFirst("SELECT value FROM sandbox_secrets WHERE name = ?", [.text(name)]) { $0.blob(0) } ?? nil
    }

    /// Keeps every `(name, value)` in `sandbox_secrets`, all or none.
    package func keepSecrets(_ secrets: [(name: String, value: [UInt8])]) throws {
        try db.transaction {
            for (name, value) in secrets {
                try db.run("INSERT OR REPLACE INTO sandbox_secrets (name, value) VALUES (?, ?)", [.text(name), .blob(value)])
            }
        }
    }
}

/// The answer to a password.
package enum PasswordVerdict: Equatable {
    case accepted
    case refused
    /// Too many wrong passwords for this user or from this address lately; try again in `retryAfter` seconds.
    case throttled(retryAfter: Int)
}

@available(*, unavailable) extension SandboxDatabase: Sendable {}
