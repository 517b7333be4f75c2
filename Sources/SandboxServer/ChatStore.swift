// Dialogs and messages (protocol doc §5–6) in the sandbox's SQLite database.

/// Sort order of a listing: a whitelisted column and a direction.
struct RecordSort {
    var column: String
    var descending: Bool
}

/// Dialog and message storage, shared by the REST handlers and the XMPP router.
/// Lives on the event-loop thread (not Sendable), like the connection it uses.
final class ChatStore {
    /// Largest message body accepted (UTF-8 bytes), over REST and XMPP alike.
    static let maxMessageBytes = 64 * 1024

    let connection: SQLiteConnection
    let applicationId: Int
    let chatDomain: String
    private let now: () -> Double
    private var ids = ObjectIdGenerator()

    init(database: SandboxDatabase, applicationId: Int, chatDomain: String, now: @escaping () -> Double = SandboxTime.now) {
        connection = database.connection
        self.applicationId = applicationId
        self.chatDomain = chatDomain.lowercased()
        self.now = now
    }

    func userExists(_ id: Int) throws -> Bool {
        try !connection.query("SELECT 1 FROM users WHERE id = ?", [id]).isEmpty
    }

    /// The ids among `candidates` that are users.
    func existingUsers(_ candidates: [Int]) throws -> Set<Int> {
        guard !candidates.isEmpty else { return [] }
        let marks = candidates.map { _ in "?" }.joined(separator: ",")
        return Set(try connection.query("SELECT id FROM users WHERE id IN (\(marks))", candidates).compactMap { $0.int("id") })
    }

    // MARK: dialogs

    static let dialogFields: [String: FilterableField] = [
        "_id": FilterableField(column: "d.id", kind: .text),
        "type": FilterableField(column: "d.type", kind: .integer),
        "name": FilterableField(column: "d.name", kind: .text),
        "user_id": FilterableField(column: "d.user_id", kind: .integer),
        "created_at": FilterableField(column: "d.created_at", kind: .real),
        "updated_at": FilterableField(column: "d.updated_at", kind: .real),
        "last_message_date_sent": FilterableField(column: "d.last_message_date_sent", kind: .integer),
    ]

    /// `viewer` nil: no unread count (it scans the dialog's messages; routing a
    /// message needs only the occupants, and paying it per message made a
    /// stream of N messages cost O(N²)).
    private func dialog(from row: SQLiteRow, viewer: Int?) throws -> DialogRecord {
        let id = row.string("id") ?? ""
        let occupants = try connection.query(
            "SELECT user_id FROM dialog_occupants WHERE dialog_id = ? ORDER BY position", [id]).compactMap { $0.int("user_id") }
        return DialogRecord(id: id, type: DialogType(rawValue: row.int("type") ?? 3) ?? .privateChat,
                            name: row.string("name"), photo: row.string("photo"), ownerId: row.int("user_id") ?? 0,
                            occupantIds: occupants, lastMessage: row.string("last_message"),
                            lastMessageDateSent: row.int("last_message_date_sent"),
                            lastMessageId: row.string("last_message_id"),
                            lastMessageUserId: row.int("last_message_user_id"),
                            unreadCount: try viewer.map { try unreadCount(dialogId: id, userId: $0) } ?? 0,
                            createdAt: row.double("created_at") ?? 0, updatedAt: row.double("updated_at") ?? 0)
    }

    /// The dialog with `id`, its unread count as `viewer` sees it (none without a viewer).
    func dialog(id: String, viewer: Int?) throws -> DialogRecord? {
        guard let row = try connection.query("SELECT * FROM dialogs WHERE id = ?", [id]).first else { return nil }
        return try dialog(from: row, viewer: viewer)
    }

    /// The private dialog whose occupants are exactly `a` and `b`, if any.
    func privateDialog(between a: Int, _ b: Int, viewer: Int?) throws -> DialogRecord? {
        guard let row = try connection.query("""
            SELECT d.* FROM dialogs d
            WHERE d.type = 3
              AND EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
              AND EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
              AND (SELECT COUNT(*) FROM dialog_occupants o WHERE o.dialog_id = d.id) = 2
            ORDER BY d.seq LIMIT 1
            """, [a, b]).first else { return nil }
        return try dialog(from: row, viewer: viewer)
    }

    /// Dialogs `userId` occupies, filtered, sorted (then by creation) and paged; with the total count.
    func dialogs(for userId: Int, filters: [RecordFilter], sort: RecordSort, limit: Int, skip: Int) throws
        -> (total: Int, items: [DialogRecord]) {
        var conditions = ["EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)"]
        var arguments: [any SQLiteBindable] = [userId]
        for filter in filters {
            let (sql, args) = filter.sql
            conditions.append(sql)
            arguments += args
        }
        let whereClause = conditions.joined(separator: " AND ")
        let total = try connection.query("SELECT COUNT(*) AS n FROM dialogs d WHERE \(whereClause)", arguments).first?.int("n") ?? 0
        let direction = sort.descending ? "DESC" : "ASC"
        let rows = try connection.query("""
            SELECT d.* FROM dialogs d WHERE \(whereClause)
            ORDER BY \(sort.column) \(direction), d.seq \(direction) LIMIT ? OFFSET ?
            """, arguments + [limit, skip])
        return (total, try rows.map { try dialog(from: $0, viewer: userId) })
    }

    func createDialog(type: DialogType, name: String?, photo: String?, ownerId: Int, occupants: [Int]) throws -> DialogRecord {
        let t = now()
        let id = ids.next(at: t)
        var all = [ownerId]
        for o in occupants where !all.contains(o) { all.append(o) }
        try connection.transaction {
            try connection.run("""
                INSERT INTO dialogs (id, type, name, photo, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [id, type.rawValue, name, photo, ownerId, t, t])
            try addOccupants(all, to: id)
        }
        guard let dialog = try dialog(id: id, viewer: ownerId) else {
            throw SQLiteError(code: 0, message: "inserted dialog vanished", sql: nil)
        }
        return dialog
    }

    private func addOccupants(_ users: [Int], to dialogId: String) throws {
        for user in users {
            try connection.run("""
                INSERT OR IGNORE INTO dialog_occupants (dialog_id, user_id, position)
                VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM dialog_occupants WHERE dialog_id = ?))
                """, [dialogId, user, dialogId])
        }
    }

    /// Sets the name/photo when given and adds/removes occupants; the dialog then bumps `updated_at`.
    func updateDialog(id: String, name: String?, photo: String?, push: [Int], pull: [Int]) throws {
        try connection.transaction {
            if let name { try connection.run("UPDATE dialogs SET name = ? WHERE id = ?", [name, id]) }
            if let photo { try connection.run("UPDATE dialogs SET photo = ? WHERE id = ?", [photo, id]) }
            try addOccupants(push, to: id)
            for user in pull {
                try connection.run("DELETE FROM dialog_occupants WHERE dialog_id = ? AND user_id = ?", [id, user])
            }
            try connection.run("UPDATE dialogs SET updated_at = ? WHERE id = ?", [now(), id])
        }
    }

    /// Deletes the dialog with its messages.
    func deleteDialog(id: String) throws {
        try connection.run("DELETE FROM dialogs WHERE id = ?", [id])
    }

    /// Removes one occupant; a dialog left without occupants is deleted.
    func leaveDialog(id: String, userId: Int) throws {
        try connection.transaction {
            try connection.run("DELETE FROM dialog_occupants WHERE dialog_id = ? AND user_id = ?", [id, userId])
            if try connection.query("SELECT 1 FROM dialog_occupants WHERE dialog_id = ? LIMIT 1", [id]).isEmpty {
                try connection.run("DELETE FROM dialogs WHERE id = ?", [id])
            }
        }
    }

    // MARK: messages

    static let messageFields: [String: FilterableField] = [
        "_id": FilterableField(column: "m.id", kind: .text),
        "date_sent": FilterableField(column: "m.date_sent", kind: .integer),
        "sender_id": FilterableField(column: "m.sender_id", kind: .integer),
        "recipient_id": FilterableField(column: "m.recipient_id", kind: .integer),
        "created_at": FilterableField(column: "m.created_at", kind: .real),
        "updated_at": FilterableField(column: "m.updated_at", kind: .real),
    ]

    private func message(from row: SQLiteRow) throws -> MessageRecord {
        let id = row.string("id") ?? ""
        let reads = try connection.query("SELECT user_id FROM message_reads WHERE message_id = ? ORDER BY rowid", [id])
        let deliveries = try connection.query("SELECT user_id FROM message_deliveries WHERE message_id = ? ORDER BY rowid", [id])
        return MessageRecord(id: id, dialogId: row.string("dialog_id") ?? "", body: row.string("body") ?? "",
                             senderId: row.int("sender_id") ?? 0, recipientId: row.int("recipient_id") ?? 0,
                             dateSent: row.int("date_sent") ?? 0,
                             readIds: reads.compactMap { $0.int("user_id") },
                             deliveredIds: deliveries.compactMap { $0.int("user_id") },
                             attachments: ChatStore.decodePairsList(row.string("attachments")).map { MessageAttachment(fields: $0) },
                             markable: row.int("markable") == 1,
                             custom: ChatStore.decodePairsList(row.string("custom")).first ?? [],
                             createdAt: row.double("created_at") ?? 0, updatedAt: row.double("updated_at") ?? 0)
    }

    func message(id: String) throws -> MessageRecord? {
        try connection.query("SELECT * FROM messages WHERE id = ?", [id]).first.map(message(from:))
    }

    /// Stores a message, makes it the dialog's last one and counts it unread for the other
    /// occupants (the sender has read it). A given id that is not 24 hex, or taken, is replaced.
    /// The sender of the stored message `id`, or nil: a one-column lookup for
    /// "is this a resend?", which every routed message asks.
    func senderOfMessage(id: String) throws -> Int? {
        try connection.query("SELECT sender_id FROM messages WHERE id = ?", [id]).first?.int("sender_id")
    }

    /// Stores a message of `dialog` (which the caller has already loaded and
    /// checked; `new.dialogId` must be its id).
    func insertMessage(_ new: NewMessage, in dialog: DialogRecord) throws -> MessageRecord {
        let t = now()
        var id = new.id ?? ""
        let taken = ObjectIdGenerator.isValid(id) ? try senderOfMessage(id: id) != nil : true
        if taken { id = ids.next(at: t) }
        let dateSent = Int(t.rounded(.down))
        let recipient = dialog.peer(of: new.senderId) ?? 0
        try connection.transaction {
            try connection.run("""
                INSERT INTO messages (id, dialog_id, body, sender_id, recipient_id, date_sent, attachments, markable, custom,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [id, new.dialogId, new.body, new.senderId, recipient, dateSent,
                      ChatStore.encodePairsList(new.attachments.map(\.fields)), new.markable ? 1 : 0,
                      ChatStore.encodePairsList([new.custom]), t, t])
            try connection.run("INSERT OR IGNORE INTO message_reads (message_id, user_id) VALUES (?, ?)", [id, new.senderId])
            try connection.run("INSERT OR IGNORE INTO message_deliveries (message_id, user_id) VALUES (?, ?)", [id, new.senderId])
            try connection.run("""
                UPDATE dialogs SET last_message = ?, last_message_date_sent = ?, last_message_id = ?,
                    last_message_user_id = ?, updated_at = ? WHERE id = ?
                """, [new.body, dateSent, id, new.senderId, t, new.dialogId])
        }
        // Exactly what was just written (reading it back cost three queries per message).
        return MessageRecord(id: id, dialogId: new.dialogId, body: new.body, senderId: new.senderId, recipientId: recipient,
                             dateSent: dateSent, readIds: [new.senderId], deliveredIds: [new.senderId],
                             attachments: new.attachments, markable: new.markable, custom: new.custom,
                             createdAt: t, updatedAt: t)
    }

    /// One page of a dialog's history: by `date_sent`, ties in send order.
    func messages(dialogId: String, filters: [RecordFilter], descending: Bool, limit: Int, skip: Int) throws -> [MessageRecord] {
        var conditions = ["m.dialog_id = ?"]
        var arguments: [any SQLiteBindable] = [dialogId]
        for filter in filters {
            let (sql, args) = filter.sql
            conditions.append(sql)
            arguments += args
        }
        let direction = descending ? "DESC" : "ASC"
        let rows = try connection.query("""
            SELECT m.* FROM messages m WHERE \(conditions.joined(separator: " AND "))
            ORDER BY m.date_sent \(direction), m.seq \(direction) LIMIT ? OFFSET ?
            """, arguments + [limit, skip])
        return try rows.map(message(from:))
    }

    /// Marks messages of a dialog read (and so delivered) by `userId`; `ids` nil: all of them.
    func markRead(dialogId: String, ids: [String]?, userId: Int) throws {
        try mark(table: "message_reads", dialogId: dialogId, ids: ids, userId: userId)
        try mark(table: "message_deliveries", dialogId: dialogId, ids: ids, userId: userId)
    }

    func markDelivered(dialogId: String, ids: [String], userId: Int) throws {
        try mark(table: "message_deliveries", dialogId: dialogId, ids: ids, userId: userId)
    }

    private func mark(table: String, dialogId: String, ids: [String]?, userId: Int) throws {
        var sql = "INSERT OR IGNORE INTO \(table) (message_id, user_id) SELECT id, ? FROM messages WHERE dialog_id = ?"
        var arguments: [any SQLiteBindable] = [userId, dialogId]
        if let ids {
            guard !ids.isEmpty else { return }
            sql += " AND id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
            arguments += ids
        }
        try connection.run(sql, arguments)
    }

    func unreadCount(dialogId: String, userId: Int) throws -> Int {
        try connection.query("""
            SELECT COUNT(*) AS n FROM messages m WHERE m.dialog_id = ?
              AND NOT EXISTS (SELECT 1 FROM message_reads r WHERE r.message_id = m.id AND r.user_id = ?)
            """, [dialogId, userId]).first?.int("n") ?? 0
    }

    /// Unread counts of the dialogs `userId` occupies (only `dialogIds` when given), in creation order.
    func unreadCounts(userId: Int, dialogIds: [String]?) throws -> [(String, Int)] {
        var sql = """
            SELECT d.id FROM dialogs d
            WHERE EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
            """
        var arguments: [any SQLiteBindable] = [userId]
        if let dialogIds {
            sql += " AND d.id IN (" + dialogIds.map { _ in "?" }.joined(separator: ",") + ")"
            arguments += dialogIds
            if dialogIds.isEmpty { return [] }
        }
        let rows = try connection.query(sql + " ORDER BY d.seq", arguments)
        return try rows.compactMap { $0.string("id") }.map { ($0, try unreadCount(dialogId: $0, userId: userId)) }
    }

    /// Deletes messages; the dialog's last message becomes the newest one left.
    func deleteMessage(_ message: MessageRecord) throws {
        try connection.transaction {
            try connection.run("DELETE FROM messages WHERE id = ?", [message.id])
            let latest = try connection.query(
                "SELECT * FROM messages WHERE dialog_id = ? ORDER BY date_sent DESC, seq DESC LIMIT 1", [message.dialogId]).first
            try connection.run("""
                UPDATE dialogs SET last_message = ?, last_message_date_sent = ?, last_message_id = ?,
                    last_message_user_id = ?, updated_at = ? WHERE id = ?
                """, [latest?.string("body"), latest?.int("date_sent"), latest?.string("id"), latest?.int("sender_id"),
                      now(), message.dialogId])
        }
    }

    // MARK: encoding of attachments and custom keys

    /// A list of key/value lists as JSON text: `[[["k","v"],...],...]` keeps key order.
    private static func encodePairsList(_ lists: [[(String, String)]]) -> String {
        JSONValue.array(lists.map { pairs in .array(pairs.map { .array([.string($0.0), .string($0.1)]) }) }).serialized
    }

    private static func decodePairsList(_ text: String?) -> [[(String, String)]] {
        guard let text, let value = try? JSONParser.parse(Array(text.utf8)), case .array(let lists) = value else { return [] }
        return lists.map { list in
            guard case .array(let pairs) = list else { return [] }
            return pairs.compactMap { pair in
                guard case .array(let kv) = pair, kv.count == 2, case .string(let k) = kv[0], case .string(let v) = kv[1] else { return nil }
                return (k, v)
            }
        }
    }
}

@available(*, unavailable) extension ChatStore: Sendable {}
