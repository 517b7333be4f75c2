// Privacy lists (XEP-0016, docs/protocol.md §7 "Privacy lists"): each user's named lists of
// rules and which one is the default; the XMPP side's `PrivacyService` checks stanzas against them.
internal import SQLiteStore

/// One rule of a privacy list, as the client wrote it (XEP-0016 §2.1).
package struct PrivacyItem: Equatable, Sendable {
    /// `jid`, `group` or `subscription`; nil: the rule matches everyone (a fall-through).
    package var type: String?
    package var value: String?
    /// Whether a match lets the stanza through (`allow`) or stops it (`deny`).
    package var allows: Bool
    /// The rules are tried in this order, lowest first.
    package var order: Int
    /// What it applies to: `message`, `iq`, `presence-in`, `presence-out`; empty: everything.
    package var kinds: [String]

    package init(type: String?, value: String?, allows: Bool, order: Int, kinds: [String]) {
        self.type = type
        self.value = value
        self.allows = allows
        self.order = order
        self.kinds = kinds
    }
}

extension ChatStore {
    /// The names of `userId`'s lists, in the order they were first made.
    package func privacyListNames(of userId: Int) throws -> [String] {
        try db.records("SELECT name FROM privacy_lists WHERE user_id = ? ORDER BY seq", [.int(userId)]) { $0.string("name") ?? "" }
    }

    /// The items of `userId`'s list `name` by order; nil when there is no such list.
    package func privacyList(of userId: Int, named name: String) throws -> [PrivacyItem]? {
        guard try db.queryFirst("SELECT 1 FROM privacy_lists WHERE user_id = ? AND name = ?", [.int(userId), .text(name)], { _ in true }) != nil else {
            return nil
        }
        return try db.records("""
            SELECT type, value, action, position, kinds FROM privacy_items WHERE user_id = ? AND list_name = ? ORDER BY position
            """, [.int(userId), .text(name)]) { row in
            PrivacyItem(type: row.string("type"), value: row.string("value"), allows: row.string("action") == "allow",
                        order: row.int("position"), kinds: (row.string("kinds") ?? "").split(separator: " ").map(String.init))
        }
    }

    /// Makes or replaces `userId`'s list `name` with `items` (at least one).
    package func savePrivacyList(_ items: [PrivacyItem], named name: String, of userId: Int) throws {
        _ = try db.run("INSERT INTO privacy_lists (user_id, name) VALUES (?, ?) ON CONFLICT (user_id, name) DO NOTHING",
                       [.int(userId), .text(name)])
        _ = try db.run("DELETE FROM privacy_items WHERE user_id = ? AND list_name = ?", [.int(userId), .text(name)])
        for item in items {
            _ = try db.run("""
                INSERT INTO privacy_items (user_id, list_name, position, type, value, action, kinds) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.int(userId), .text(name), .int(item.order), .optional(item.type), .optional(item.value),
                      .text(item.allows ? "allow" : "deny"), .text(item.kinds.joined(separator: " "))])
        }
    }

    /// Removes `userId`'s list `name`; false when there was none.
    package func deletePrivacyList(named name: String, of userId: Int) throws -> Bool {
        _ = try db.run("DELETE FROM privacy_items WHERE user_id = ? AND list_name = ?", [.int(userId), .text(name)])
        return try db.run("DELETE FROM privacy_lists WHERE user_id = ? AND name = ?", [.int(userId), .text(name)]) > 0
    }

    /// The name of `userId`'s default list, if any.
    package func defaultPrivacyList(of userId: Int) throws -> String? {
        try db.firstRecord("SELECT list_name FROM privacy_defaults WHERE user_id = ?", [.int(userId)]) { $0.string("list_name") } ?? nil
    }

    /// Sets (nil: declines) `userId`'s default list.
    package func setDefaultPrivacyList(_ name: String?, of userId: Int) throws {
        if let name {
            _ = try db.run("""
                INSERT INTO privacy_defaults (user_id, list_name) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET list_name = excluded.list_name
                """, [.int(userId), .text(name)])
        } else {
            _ = try db.run("DELETE FROM privacy_defaults WHERE user_id = ?", [.int(userId)])
        }
    }
}
