// A user's own record changed or removed, and the lookups by tag and external id
// (docs/protocol.md §3).
internal import SQLiteStore

extension SandboxDatabase {
    /// Applies `changes` to the user and bumps `updated_at`; the user as stored now.
    package func updateUser(id: Int, _ changes: UserChanges) throws -> UserRecord? {
        var assignments: [String] = []
        var arguments: [SQLiteValue] = []
        func set(_ column: String, _ value: SQLiteValue) { assignments.append("\(column) = ?"); arguments.append(value) }
        if let login = changes.login { set("login", .text(login)) }
        if let email = changes.email { set("email", .optional(email)) }
        if let fullName = changes.fullName { set("full_name", .optional(fullName)) }
        if let phone = changes.phone { set("phone", .optional(phone)) }
        if let website = changes.website { set("website", .optional(website)) }
        if let customData = changes.customData { set("custom_data", .optional(customData)) }
        if let externalUserId = changes.externalUserId { set("external_user_id", .optional(externalUserId)) }
        if let blobId = changes.blobId { set("blob_id", .optional(blobId)) }
        if let tags = changes.tags { set("tags", .optional(UserProfile.stored(tags: tags))) }
        if let facebookId = changes.facebookId { set("facebook_id", .optional(facebookId)) }
        if let twitterId = changes.twitterId { set("twitter_id", .optional(twitterId)) }
        if let twitterDigitsId = changes.twitterDigitsId { set("twitter_digits_id", .optional(twitterDigitsId)) }
        if let password = changes.password {
            let hash = PasswordHash(password: password, iterations: passwordIterations)
            set("password_salt", .blob(hash.salt)); set("password_hash", .blob(hash.hash)); set("password_iterations", .int(hash.iterations))
        }
        set("updated_at", .real(now()))
        try db.run("UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments + [.int(id)])
        return try user(id: id)
    }

    /// Removes the user and ends their sessions. Dialogs keep them as an occupant: the other
    /// side of a private dialog still has it, with its messages.
    package func deleteUser(id: Int) throws {
        try db.run("DELETE FROM sessions WHERE user_id = ?", [.int(id)])
        try db.run("DELETE FROM dialog_muted WHERE user_id = ?", [.int(id)])
        try db.run("DELETE FROM chat_last_seen WHERE user_id = ?", [.int(id)])
        // Nothing more is pushed to them, nor on their behalf; what was pushed stays on record.
        try db.run("DELETE FROM push_subscriptions WHERE user_id = ?", [.int(id)])
        try db.run("DELETE FROM push_events WHERE user_id = ?", [.int(id)])
        try db.run("DELETE FROM address_book WHERE user_id = ?", [.int(id)])
        try db.run("DELETE FROM users WHERE id = ?", [.int(id)])
    }

    /// Whether another user than `exceptId` has that login (or email).
    package func isLoginTaken(_ login: String, exceptId: Int) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM users WHERE login = ? AND id != ?", [.text(login), .int(exceptId)]) { _ in true } ?? false
    }

    package func isEmailTaken(_ email: String, exceptId: Int) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM users WHERE email = ? AND id != ?", [.text(email), .int(exceptId)]) { _ in true } ?? false
    }

    package func user(externalId: Int) throws -> UserRecord? {
        try db.queryFirst("SELECT \(Self.userColumns) FROM users WHERE external_user_id = ? ORDER BY id",
                          [.int(externalId)], Self.user(from:))
    }

    /// One page of the users that have any of `tags` (ASCII case ignored), ordered by id;
    /// with the total count.
    package func users(taggedWithAny tags: [String], page: Int, perPage: Int) throws -> (total: Int, items: [UserRecord]) {
        guard !tags.isEmpty else { return (0, []) }
        let condition = "WHERE " + tags.map { _ in Self.hasTag("users") }.joined(separator: " OR ")
        let patterns = tags.map(SQLiteValue.text)
        let total = try db.queryFirst("SELECT COUNT(*) FROM users \(condition)", patterns) { $0.int(0) } ?? 0
        let users = try db.query(
            "SELECT \(Self.userColumns) FROM users \(condition) ORDER BY id LIMIT ? OFFSET ?",
            patterns + [.int(perPage), .int((page - 1) * perPage)], Self.user(from:))
        return (total, users)
    }

    /// SQL true when the user row `table` has the tag bound to its `?` among its `tags` (ASCII
    /// case ignored, as the service compares tags).
    static func hasTag(_ table: String) -> String {
        "EXISTS (SELECT 1 FROM json_each(\(table).tags) WHERE json_each.value = ? COLLATE NOCASE)"
    }
}
