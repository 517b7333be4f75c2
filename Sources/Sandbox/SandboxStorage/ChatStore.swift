// Dialogs and messages (docs/protocol.md §5–6) in the sandbox's SQLite database.
internal import SQLiteStore
import SandboxClock
import SandboxJSON

/// Dialog and message storage, shared by the REST handlers and the XMPP router.
/// Lives on the event-loop thread (not Sendable), like the database it uses.
package final class ChatStore {
    /// Largest message body accepted (UTF-8 bytes), over REST and XMPP alike.
    package static let maxMessageBytes = 64 * 1024

    let db: Database
    package let applicationId: Int
    package let chatDomain: String
    private let now: () -> Double
    private var ids = ObjectIdGenerator()
    /// What routing keeps between messages; shared by every store on the same database, so a
    /// change made through one (REST) reaches the next message routed through another.
    private let routing: RoutingCache
    /// The database's: whether the disk was full at the last write.
    package let space: StorageSpace
    /// While a turn's transaction is open (`TurnCommit`), a dialog's last message is written
    /// once at the end of the turn, not once per message stored in it.
    private(set) var defersLastMessages = false
    private var lastMessages: [String: LastMessage] = [:]
    /// The statements every routed message and marker runs, prepared once and kept here:
    /// `Database.run` finds its cached statement by hashing the whole SQL text each time.
    private var insertMessageStatement: Statement?
    private var senderOfMessageStatement: Statement?
    private var markDeliveredStatement: Statement?
    private var markReadStatement: Statement?
    private struct LastMessage { var body: String, dateSent: Int, id: String, senderId: Int, at: Double }
    /// Tests: the next turns' commits fail (as a full disk would make them) while this is above zero.
    package var commitsToFail = 0

    package init(database: SandboxDatabase, applicationId: Int, chatDomain: String, now: @escaping () -> Double = SandboxTime.now) {
        db = database.db
        routing = database.routingCache
        space = database.space
        self.applicationId = applicationId
        self.chatDomain = chatDomain.lowercased()
        self.now = now
    }

    package func userExists(_ id: Int) throws -> Bool {
        if routing.knownUsers.contains(id) { return true }
        let exists = try db.queryFirst("SELECT 1 FROM users WHERE id = ?", [.int(id)]) { _ in true } ?? false
        if exists { routing.knownUsers.insert(id) }
        return exists
    }

    /// The dialog `id` as routing needs it: type, owner, occupants, name. Kept between calls,
    /// so its last message and unread count are not current; routing reads neither.
    package func routingDialog(id: String) throws -> DialogRecord? {
        if let dialog = routing.dialogs[id] { return dialog }
        guard let dialog = try dialog(id: id, viewer: nil) else { return nil }
        routing.keep(dialog)
        return dialog
    }

    /// The private dialog of `a` and `b` as routing needs it (see `routingDialog`), if any.
    package func routingPrivateDialog(between a: Int, _ b: Int) throws -> DialogRecord? {
        if let id = routing.pairs[RoutingCache.Pair(a, b)], let dialog = try routingDialog(id: id), dialog.type == .privateChat,
           Set(dialog.occupantIds) == [a, b] {
            return dialog
        }
        guard let dialog = try privateDialog(between: a, b, viewer: nil) else { return nil }
        routing.keepPair(a, b, dialogId: dialog.id)
        return dialog
    }

    /// Forgets what routing keeps: after a rollback it may name rows that are gone.
    package func forgetRoutingCaches() { routing.forgetAll() }

    /// The ids among `candidates` that are users.
    package func existingUsers(_ candidates: [Int]) throws -> Set<Int> {
        guard !candidates.isEmpty else { return [] }
        let marks = candidates.map { _ in "?" }.joined(separator: ",")
        return Set(try db.query("SELECT id FROM users WHERE id IN (\(marks))", candidates.map(SQLiteValue.int)) { $0.int(0) })
    }

    // MARK: dialogs

    package static let dialogFields: [String: FilterableField] = [
        "_id": FilterableField(column: "d.id", kind: .text),
        "type": FilterableField(column: "d.type", kind: .integer),
        "name": FilterableField(column: "d.name", kind: .text),
        "user_id": FilterableField(column: "d.user_id", kind: .integer),
        "created_at": FilterableField(column: "d.created_at", kind: .date),
        "updated_at": FilterableField(column: "d.updated_at", kind: .date),
        "last_message_date_sent": FilterableField(column: "d.last_message_date_sent", kind: .integer),
        "last_message": FilterableField(column: "d.last_message", kind: .text),
        "last_message_user_id": FilterableField(column: "d.last_message_user_id", kind: .integer),
        "occupants_ids": FilterableField(items: "dialog_occupants fo WHERE fo.dialog_id = d.id", value: "fo.user_id", kind: .integer),
    ]

    /// A dialog row's own columns; occupants and the unread count come from `completed`.
    private static func dialogColumns(_ row: Statement) -> DialogRecord {
        DialogRecord(id: row["id"].textValue ?? "", type: DialogKind(rawValue: row["type"].intValue ?? 3) ?? .privateChat,
                     name: row["name"].textValue, photo: row["photo"].textValue, ownerId: row["user_id"].intValue ?? 0,
                     occupantIds: [], lastMessage: row["last_message"].textValue,
                     lastMessageDateSent: row["last_message_date_sent"].intValue,
                     lastMessageId: row["last_message_id"].textValue,
                     lastMessageUserId: row["last_message_user_id"].intValue,
                     unreadCount: 0,
                     createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0)
    }

    /// `viewer` nil: no unread count (it scans the dialog's messages; routing a
    /// message needs only the occupants, and paying it per message made a
    /// stream of N messages cost O(N²)) and no private dialog's name.
    private func completed(_ dialog: DialogRecord, viewer: Int?) throws -> DialogRecord {
        var dialog = dialog
        dialog.occupantIds = try db.query(
            "SELECT user_id FROM dialog_occupants WHERE dialog_id = ? ORDER BY position", [.text(dialog.id)]) { $0.int(0) }
        if let viewer {
            dialog.unreadCount = try unreadCount(dialogId: dialog.id, userId: viewer)
            if let peer = dialog.peer(of: viewer) { dialog.name = try displayName(of: peer) }
        }
        return dialog
    }

    /// What a private dialog is called for one of its occupants: the other one's full name, else
    /// their login, else their email, as the hosted service names it; their id once the account is
    /// gone. Never null: QuickBlox's web sample reads a person's name from it (docs/protocol.md §5).
    private func displayName(of userId: Int) throws -> String {
        let name = try db.queryFirst("SELECT COALESCE(NULLIF(full_name, ''), login, email) FROM users WHERE id = ?", [.int(userId)]) {
            $0.string(0)
        }
        return (name ?? nil) ?? String(userId)
    }

    /// The dialog with `id`, its unread count as `viewer` sees it (none without a viewer).
    package func dialog(id: String, viewer: Int?) throws -> DialogRecord? {
        try db.queryFirst("SELECT * FROM dialogs WHERE id = ?", [.text(id)], Self.dialogColumns)
            .map { try completed($0, viewer: viewer) }
    }

    /// The private dialog whose occupants are exactly `a` and `b`, if any.
    package func privateDialog(between a: Int, _ b: Int, viewer: Int?) throws -> DialogRecord? {
        try db.queryFirst("""
            SELECT d.* FROM dialogs d
            WHERE d.type = 3
              AND EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
              AND EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
              AND (SELECT COUNT(*) FROM dialog_occupants o WHERE o.dialog_id = d.id) = 2
            ORDER BY d.seq LIMIT 1
            """, [.int(a), .int(b)], Self.dialogColumns).map { try completed($0, viewer: viewer) }
    }

    /// Dialogs `userId` occupies, filtered (by their custom data too), sorted (then by creation)
    /// and paged; with the total count.
    package func dialogs(for userId: Int, filters: [RecordFilter], customData: DialogDataFilter? = nil, sort: RecordSort,
                         limit: Int, skip: Int) throws -> (total: Int, items: [DialogRecord]) {
        var conditions = ["EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)"]
        var arguments: [SQLiteValue] = [.int(userId)]
        for (sql, args) in filters.map(\.sql) + (customData.map { [$0.sql] } ?? []) {
            conditions.append(sql)
            arguments += args
        }
        let whereClause = conditions.joined(separator: " AND ")
        let total = try db.queryFirst("SELECT COUNT(*) FROM dialogs d WHERE \(whereClause)", arguments) { $0.int(0) } ?? 0
        let direction = sort.descending ? "DESC" : "ASC"
        let page = try db.query("""
            SELECT d.* FROM dialogs d WHERE \(whereClause)
            ORDER BY \(sort.column) \(direction), d.seq \(direction) LIMIT ? OFFSET ?
            """, arguments + [.int(limit), .int(skip)], Self.dialogColumns)
        return (total, try page.map { try completed($0, viewer: userId) })
    }

    /// A private dialog keeps no name or photo of its own: its name is the other occupant's (`completed`).
    package func createDialog(type: DialogKind, name: String?, photo: String?, ownerId: Int, occupants: [Int]) throws -> DialogRecord {
        let name = type == .privateChat ? nil : name, photo = type == .privateChat ? nil : photo
        let t = now()
        let id = ids.next(at: t)
        var all = [ownerId]
        for o in occupants where !all.contains(o) { all.append(o) }
        try db.transaction {
            try db.run("""
                INSERT INTO dialogs (id, type, name, photo, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(id), .int(type.rawValue), .optional(name), .optional(photo), .int(ownerId), .real(t), .real(t)])
            try addOccupants(all, to: id)
        }
        guard let dialog = try dialog(id: id, viewer: ownerId) else {
            throw SQLiteError(extendedCode: .error, message: "the dialog just inserted (\(id)) cannot be read back")
        }
        return dialog
    }

    private func addOccupants(_ users: [Int], to dialogId: String) throws {
        for user in users {
            try db.run("""
                INSERT OR IGNORE INTO dialog_occupants (dialog_id, user_id, position)
                VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM dialog_occupants WHERE dialog_id = ?))
                """, [.text(dialogId), .int(user), .text(dialogId)])
        }
    }

    /// Sets the name/photo when given and adds/removes occupants; the dialog then bumps `updated_at`.
    package func updateDialog(id: String, name: String?, photo: String?, push: [Int], pull: [Int]) throws {
        routing.dialogs[id] = nil
        try db.transaction {
            if let name { try db.run("UPDATE dialogs SET name = ? WHERE id = ?", [.text(name), .text(id)]) }
            if let photo { try db.run("UPDATE dialogs SET photo = ? WHERE id = ?", [.text(photo), .text(id)]) }
            try addOccupants(push, to: id)
            for user in pull {
                try db.run("DELETE FROM dialog_occupants WHERE dialog_id = ? AND user_id = ?", [.text(id), .int(user)])
            }
            try db.run("UPDATE dialogs SET updated_at = ? WHERE id = ?", [.real(now()), .text(id)])
        }
    }

    /// Deletes the dialog with its messages.
    package func deleteDialog(id: String) throws {
        routing.dialogs[id] = nil
        routing.forgetRecentMessages()
        try db.run("DELETE FROM dialogs WHERE id = ?", [.text(id)])
    }

    /// Removes one occupant; a dialog left without occupants is deleted.
    package func leaveDialog(id: String, userId: Int) throws {
        routing.dialogs[id] = nil
        routing.forgetRecentMessages() // the last to leave deletes the dialog's messages
        try db.transaction {
            try db.run("DELETE FROM dialog_occupants WHERE dialog_id = ? AND user_id = ?", [.text(id), .int(userId)])
            if try db.queryFirst("SELECT 1 FROM dialog_occupants WHERE dialog_id = ? LIMIT 1", [.text(id)], { _ in true }) == nil {
                try db.run("DELETE FROM dialogs WHERE id = ?", [.text(id)])
            }
        }
    }

    // MARK: messages

    package static let messageFields: [String: FilterableField] = [
        "_id": FilterableField(column: "m.id", kind: .text),
        "date_sent": FilterableField(column: "m.date_sent", kind: .integer),
        "sender_id": FilterableField(column: "m.sender_id", kind: .integer),
        "recipient_id": FilterableField(column: "m.recipient_id", kind: .integer),
        "created_at": FilterableField(column: "m.created_at", kind: .date),
        "updated_at": FilterableField(column: "m.updated_at", kind: .date),
        "message": FilterableField(column: "m.body", kind: .text),
        // Attachments are stored as `[[["type","image"],["id","…"]],…]` (`encodePairsList`).
        "attachments.type": FilterableField(items: "json_each(m.attachments) fa, json_each(fa.value) fp WHERE json_extract(fp.value, '$[0]') = 'type'",
                                            value: "json_extract(fp.value, '$[1]')", kind: .text),
    ]

    /// A message row's own columns; who read it and who has it come from `completed`.
    private static func messageColumns(_ row: Statement) -> MessageRecord {
        MessageRecord(id: row["id"].textValue ?? "", dialogId: row["dialog_id"].textValue ?? "", body: row["body"].textValue ?? "",
                      senderId: row["sender_id"].intValue ?? 0, recipientId: row["recipient_id"].intValue ?? 0,
                      dateSent: row["date_sent"].intValue ?? 0, readIds: [], deliveredIds: [],
                      attachments: ChatStore.decodePairsList(row["attachments"].textValue).map { MessageAttachment(fields: $0) },
                      markable: row["markable"].intValue == 1,
                      custom: ChatStore.decodePairsList(row["custom"].textValue).first ?? [],
                      createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0,
                      originId: row["origin_id"].textValue)
    }

    /// Who read a message and who has it: its sender first (always, without a row of its own:
    /// two rows fewer to write for every message), then the others in the order they did.
    private func completed(_ message: MessageRecord) throws -> MessageRecord {
        var message = message
        let arguments: [SQLiteValue] = [.text(message.id), .int(message.senderId)]
        message.readIds = [message.senderId] + (try db.query(
            "SELECT user_id FROM message_reads WHERE message_id = ? AND user_id != ? ORDER BY rowid", arguments) { $0.int(0) })
        message.deliveredIds = [message.senderId] + (try db.query(
            "SELECT user_id FROM message_deliveries WHERE message_id = ? AND user_id != ? ORDER BY rowid", arguments) { $0.int(0) })
        return message
    }

    package func message(id: String) throws -> MessageRecord? {
        try db.queryFirst("SELECT * FROM messages WHERE id = ?", [.text(id)], Self.messageColumns).map(completed)
    }

    /// Stores a message, makes it the dialog's last one and counts it unread for the other
    /// occupants (the sender has read it). A given id that is not 24 hex, or taken, is replaced.
    /// The latest message `senderId` sent under their own id `originId` and stored under another.
    package func message(originId: String, senderId: Int) throws -> MessageRecord? {
        try db.queryFirst("SELECT * FROM messages WHERE sender_id = ? AND origin_id = ? ORDER BY seq DESC LIMIT 1",
                          [.int(senderId), .text(originId)], Self.messageColumns).map(completed)
    }

    /// The sender of the stored message `id`, or nil: a one-column lookup for
    /// "is this a resend?", which every routed message asks.
    package func senderOfMessage(id: String) throws -> Int? {
        let statement = try prepared(&senderOfMessageStatement, "SELECT sender_id FROM messages WHERE id = ?")
        try statement.bind([.text(id)])
        defer { try? statement.reset() }
        return try statement.step() ? statement.int(0) : nil
    }

    /// `slot`'s statement, prepared from `sql` the first time.
    private func prepared(_ slot: inout Statement?, _ sql: String) throws -> Statement {
        if let statement = slot { return statement }
        let statement = try db.prepare(sql)
        slot = statement
        return statement
    }

    /// Who sent the stored message `id`, in which dialog, under which id of their own: all a
    /// chat marker needs. A message stored lately is known without a read.
    package func messageOrigin(id: String) throws -> MessageOrigin? {
        if let known = routing.recentMessages[id] { return known }
        return try db.queryFirst("SELECT sender_id, dialog_id, origin_id FROM messages WHERE id = ?", [.text(id)]) {
            MessageOrigin(id: id, senderId: $0["sender_id"].intValue ?? 0, dialogId: $0["dialog_id"].textValue ?? "", originId: $0["origin_id"].textValue)
        }
    }

    /// The latest message `senderId` sent under their own id `originId` and stored under another
    /// (see `messageOrigin(id:)`).
    package func messageOrigin(originId: String, senderId: Int) throws -> MessageOrigin? {
        try db.queryFirst("SELECT id, dialog_id FROM messages WHERE sender_id = ? AND origin_id = ? ORDER BY seq DESC LIMIT 1",
                          [.int(senderId), .text(originId)]) {
            MessageOrigin(id: $0["id"].textValue ?? "", senderId: senderId, dialogId: $0["dialog_id"].textValue ?? "", originId: originId)
        }
    }

    /// `insertMessage(_:in:idOwner:)` with `idOwner` `.foundByInsert`: the message's ObjectId
    /// is stored already, from the same sender. A resend, to acknowledge and drop.
    package struct AlreadyStored: Error {}

    /// Who stored a message under a new message's ObjectId, as far as its caller knows.
    package enum IdOwner: Equatable {
        /// Not asked: `insertMessage` asks (`senderOfMessage`).
        case unknown
        /// The caller has just asked: the sender stored under that id, or nil for nobody.
        case known(Int?)
        /// Not asked: the INSERT finds out (the id's unique index is searched anyway). A
        /// message the same sender stored under that id throws `AlreadyStored` (a resend);
        /// anyone else's makes a new id.
        case foundByInsert
    }

    /// Stores a message of `dialog` (which the caller has already loaded and
    /// checked; `new.dialogId` must be its id).
    package func insertMessage(_ new: NewMessage, in dialog: DialogRecord, idOwner: IdOwner = .unknown) throws -> MessageRecord {
        let t = now()
        var id = new.id ?? ""
        let taken: Bool
        switch idOwner {
        case _ where !ObjectIdGenerator.isValid(id): taken = true
        case .known(let owner): taken = owner != nil
        case .foundByInsert: taken = false
        case .unknown: taken = try senderOfMessage(id: id) != nil
        }
        if taken { id = ids.next(at: t) }
        let dateSent = new.dateSent ?? Int(t.rounded(.down))
        let recipient = dialog.peer(of: new.senderId) ?? 0
        let blobs = Set(new.attachments.compactMap(\.blobUID))
        var currentOriginId: String? { new.originId.flatMap { $0.isEmpty || $0 == id ? nil : $0 } }
        var last: LastMessage { LastMessage(body: new.body, dateSent: dateSent, id: id, senderId: new.senderId, at: t) }
        func write() throws {
            try prepared(&insertMessageStatement, """
                INSERT INTO messages (id, dialog_id, body, sender_id, recipient_id, date_sent, attachments, markable, custom,
                    created_at, updated_at, origin_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([.text(id), .text(new.dialogId), .text(new.body), .int(new.senderId), .int(recipient), .int(dateSent),
                      .text(ChatStore.encodePairsList(new.attachments.map(\.fields))), .int(new.markable ? 1 : 0),
                      .text(ChatStore.encodePairsList([new.custom])), .real(t), .real(t), .optional(currentOriginId)])
            // The sender has read it and has it without rows saying so (`completed`, `unreadCount`).
            // Who may download a private blob follows from the messages that refer to it (docs/protocol.md §8).
            for uid in blobs {
                try db.run("INSERT OR IGNORE INTO message_blobs (message_id, blob_uid) VALUES (?, ?)", [.text(id), .text(uid)])
            }
            if !defersLastMessages { try setLastMessage(last, of: new.dialogId) }
        }
        func store() throws {
            if defersLastMessages && blobs.isEmpty {
                // Inside the turn's transaction, one statement is atomic by itself: a savepoint
                // around it cost a fifth of a routed message (SAVEPOINT, RELEASE, and a copy of
                // every page it touched in the sub-journal). A failed one undoes itself.
                try write()
            } else {
                try db.transaction { try write() }
            }
        }
        do {
            try store()
        } catch let error as SQLiteError where idOwner == .foundByInsert && !taken && error.code == .constraint {
            guard let owner = try senderOfMessage(id: id) else { throw error }
            if owner == new.senderId { throw AlreadyStored() }
            id = ids.next(at: t)
            try store()
        }
        let originId = currentOriginId
        if defersLastMessages { lastMessages[new.dialogId] = last }
        routing.keepRecent(MessageOrigin(id: id, senderId: new.senderId, dialogId: new.dialogId, originId: originId))
        // Exactly what was just written (reading it back cost three queries per message).
        return MessageRecord(id: id, dialogId: new.dialogId, body: new.body, senderId: new.senderId, recipientId: recipient,
                             dateSent: dateSent, readIds: [new.senderId], deliveredIds: [new.senderId],
                             attachments: new.attachments, markable: new.markable, custom: new.custom,
                             createdAt: t, updatedAt: t, originId: originId)
    }

    private func setLastMessage(_ last: LastMessage, of dialogId: String) throws {
        try db.run("""
            UPDATE dialogs SET last_message = ?, last_message_date_sent = ?, last_message_id = ?,
                last_message_user_id = ?, updated_at = ? WHERE id = ?
            """, [.text(last.body), .int(last.dateSent), .text(last.id), .int(last.senderId), .real(last.at), .text(dialogId)])
    }

    /// From now until `writeLastMessages()`, dialogs' last messages wait in memory (a turn's
    /// transaction is open and nothing reads them before it commits: REST commits it first).
    package func deferLastMessages() { defersLastMessages = true }

    /// Writes the last message of every dialog that got one since `deferLastMessages()`.
    package func writeLastMessages() throws {
        defersLastMessages = false
        let pending = lastMessages
        lastMessages = [:]
        for (dialogId, last) in pending { try setLastMessage(last, of: dialogId) }
    }

    /// Drops what `deferLastMessages()` kept (the turn's transaction was rolled back).
    package func forgetLastMessages() {
        defersLastMessages = false
        lastMessages = [:]
    }

    /// One page of a dialog's history: by `date_sent`, ties in send order; without the
    /// messages `viewer` deleted for themselves.
    package func messages(dialogId: String, filters: [RecordFilter], descending: Bool, limit: Int, skip: Int,
                  viewer: Int? = nil) throws -> [MessageRecord] {
        try messages(dialogId: dialogId, filters: filters, sort: RecordSort(column: "m.date_sent", descending: descending),
                     limit: limit, skip: skip, viewer: viewer)
    }

    /// One page of a dialog's history ordered by `sort`'s column, ties in send order.
    package func messages(dialogId: String, filters: [RecordFilter], sort: RecordSort, limit: Int, skip: Int,
                  viewer: Int? = nil) throws -> [MessageRecord] {
        let (whereClause, arguments) = messageConditions(dialogId: dialogId, filters: filters, viewer: viewer)
        let direction = sort.descending ? "DESC" : "ASC"
        let page = try db.query("""
            SELECT m.* FROM messages m WHERE \(whereClause)
            ORDER BY \(sort.column) \(direction), m.seq \(direction) LIMIT ? OFFSET ?
            """, arguments + [.int(limit), .int(skip)], Self.messageColumns)
        return try page.map(completed)
    }

    /// How many messages of the dialog `messages` would page through (`count=1`).
    package func messageCount(dialogId: String, filters: [RecordFilter], viewer: Int?) throws -> Int {
        let (whereClause, arguments) = messageConditions(dialogId: dialogId, filters: filters, viewer: viewer)
        return try db.queryFirst("SELECT COUNT(*) FROM messages m WHERE \(whereClause)", arguments) { $0.int(0) } ?? 0
    }

    /// The WHERE clause of a history query: the dialog, not hidden from `viewer`, the filters.
    private func messageConditions(dialogId: String, filters: [RecordFilter], viewer: Int?) -> (String, [SQLiteValue]) {
        var conditions = ["m.dialog_id = ?"]
        var arguments: [SQLiteValue] = [.text(dialogId)]
        if let viewer {
            conditions.append("NOT EXISTS (SELECT 1 FROM message_hidden h WHERE h.message_id = m.id AND h.user_id = ?)")
            arguments.append(.int(viewer))
        }
        for filter in filters {
            let (sql, args) = filter.sql
            conditions.append(sql)
            arguments += args
        }
        return (conditions.joined(separator: " AND "), arguments)
    }

    /// Marks messages of a dialog read (and so delivered) by `userId`; `ids` nil: all of them.
    package func markRead(dialogId: String, ids: [String]?, userId: Int) throws {
        try mark(table: "message_reads", dialogId: dialogId, ids: ids, userId: userId)
        try mark(table: "message_deliveries", dialogId: dialogId, ids: ids, userId: userId)
    }

    /// Marks messages of a dialog delivered to `userId`; `ids` nil: all of them.
    package func markDelivered(dialogId: String, ids: [String]?, userId: Int) throws {
        try mark(table: "message_deliveries", dialogId: dialogId, ids: ids, userId: userId)
    }

    /// Marks one message read (and so delivered) by `userId`, who the caller has checked is in
    /// its dialog and not its sender (`messageOrigin`): a chat marker's write, without the
    /// search of the dialog's messages that `markRead(dialogId:ids:userId:)` does.
    package func markRead(_ message: MessageOrigin, userId: Int) throws {
        try prepared(&markReadStatement, "INSERT OR IGNORE INTO message_reads (message_id, user_id) VALUES (?, ?)")
            .run([.text(message.id), .int(userId)])
        try markDelivered(message, userId: userId)
    }

    /// Marks one message delivered to `userId` (see `markRead(_:userId:)`).
    package func markDelivered(_ message: MessageOrigin, userId: Int) throws {
        try prepared(&markDeliveredStatement, "INSERT OR IGNORE INTO message_deliveries (message_id, user_id) VALUES (?, ?)")
            .run([.text(message.id), .int(userId)])
    }

    private func mark(table: String, dialogId: String, ids: [String]?, userId: Int) throws {
        // A user's own messages count as read and delivered to them already.
        var sql = "INSERT OR IGNORE INTO \(table) (message_id, user_id) SELECT id, ? FROM messages WHERE dialog_id = ? AND sender_id != ?"
        var arguments: [SQLiteValue] = [.int(userId), .text(dialogId), .int(userId)]
        if let ids {
            guard !ids.isEmpty else { return }
            sql += " AND id IN (" + ids.map { _ in "?" }.joined(separator: ",") + ")"
            arguments += ids.map(SQLiteValue.text)
        }
        try db.run(sql, arguments)
    }

    package func unreadCount(dialogId: String, userId: Int) throws -> Int {
        try db.queryFirst("""
            SELECT COUNT(*) FROM messages m WHERE m.dialog_id = ? AND m.sender_id != ?
              AND NOT EXISTS (SELECT 1 FROM message_reads r WHERE r.message_id = m.id AND r.user_id = ?)
            """, [.text(dialogId), .int(userId), .int(userId)]) { $0.int(0) } ?? 0
    }

    /// Unread counts of the dialogs `userId` occupies (only `dialogIds` when given), in creation order.
    package func unreadCounts(userId: Int, dialogIds: [String]?) throws -> [(String, Int)] {
        var sql = """
            SELECT d.id FROM dialogs d
            WHERE EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?)
            """
        var arguments: [SQLiteValue] = [.int(userId)]
        if let dialogIds {
            sql += " AND d.id IN (" + dialogIds.map { _ in "?" }.joined(separator: ",") + ")"
            arguments += dialogIds.map(SQLiteValue.text)
            if dialogIds.isEmpty { return [] }
        }
        let ids = try db.query(sql + " ORDER BY d.seq", arguments) { $0.string(0) ?? "" }
        return try ids.map { ($0, try unreadCount(dialogId: $0, userId: userId)) }
    }

    /// Whether `userId` deleted the message for themselves.
    package func isHidden(messageId: String, from userId: Int) throws -> Bool {
        try db.queryFirst("SELECT 1 FROM message_hidden WHERE message_id = ? AND user_id = ?",
                          [.text(messageId), .int(userId)]) { _ in true } ?? false
    }

    /// Deletes a message for one user only (`DELETE` without `force`): their history no
    /// longer shows it, and it no longer counts as unread for them.
    package func hideMessage(_ message: MessageRecord, from userId: Int) throws {
        try db.transaction {
            try db.run("INSERT OR IGNORE INTO message_hidden (message_id, user_id) VALUES (?, ?)", [.text(message.id), .int(userId)])
            try db.run("INSERT OR IGNORE INTO message_reads (message_id, user_id) VALUES (?, ?)", [.text(message.id), .int(userId)])
        }
    }

    /// Replaces a message's text (an edit by its sender); the dialog's `last_message` follows.
    package func editMessage(_ message: MessageRecord, body: String) throws {
        let t = now()
        try db.transaction {
            try db.run("UPDATE messages SET body = ?, updated_at = ? WHERE id = ?", [.text(body), .real(t), .text(message.id)])
            try db.run("UPDATE dialogs SET last_message = ?, updated_at = ? WHERE id = ? AND last_message_id = ?",
                       [.text(body), .real(t), .text(message.dialogId), .text(message.id)])
        }
    }

    /// Deletes messages; the dialog's last message becomes the newest one left.
    package func deleteMessage(_ message: MessageRecord) throws {
        routing.forgetMessage(id: message.id)
        try db.transaction {
            try db.run("DELETE FROM messages WHERE id = ?", [.text(message.id)])
            let latest = try db.queryFirst(
                "SELECT * FROM messages WHERE dialog_id = ? ORDER BY date_sent DESC, seq DESC LIMIT 1", [.text(message.dialogId)],
                Self.messageColumns)
            try db.run("""
                UPDATE dialogs SET last_message = ?, last_message_date_sent = ?, last_message_id = ?,
                    last_message_user_id = ?, updated_at = ? WHERE id = ?
                """, [.optional(latest?.body), .optional(latest?.dateSent), .optional(latest?.id), .optional(latest?.senderId),
                      .real(now()), .text(message.dialogId)])
        }
    }

    // MARK: encoding of attachments and custom keys

    /// A list of key/value lists as JSON text: `[[["k","v"],...],...]` keeps key order.
    private static func encodePairsList(_ lists: [[(String, String)]]) -> String {
        // What nearly every message stores: no attachments, no custom keys.
        if lists.isEmpty { return "[]" }
        if lists.count == 1 && lists[0].isEmpty { return "[[]]" }
        return JSONNode.array(lists.map { pairs in .array(pairs.map { .array([.string($0.0), .string($0.1)]) }) }).serialized
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
