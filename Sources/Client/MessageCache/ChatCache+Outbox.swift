import SQLiteStore
internal import Glibc
import ChatIdentifiers

extension ChatCache {
    static func outboxEntry(_ row: Row) -> OutboxEntry {
        OutboxEntry(
            rowID: row.int64("seq"), clientMessageID: row.string("client_message_id") ?? "", dialogID: DialogID(row.string("dialog_id") ?? ""),
            text: row.string("text") ?? "", createdAt: row.int("created_at"), attempts: row.int("attempts"),
            lastError: row.string("last_error"), claimedBy: row.optionalInt("claimed_by"), claimedAt: row.optionalInt("claimed_at"),
            attachmentsJSON: row.string("attachments") ?? "", customJSON: row.string("custom") ?? "")
    }

    static let outboxColumns = "seq, client_message_id, dialog_id, text, created_at, attempts, last_error, claimed_by, claimed_at, attachments, custom"

    /// Records a message before it is sent and returns its row id. Enqueueing
    /// the same `clientMessageID` again returns the existing row. With an
    /// `owner`, the entry starts claimed by it, so a concurrent flush cannot
    /// send it while its sender is still delivering it. `attachmentsJSON`: the
    /// attachment objects to send with it, as a JSON array (`""`: none);
    /// `uploads`: files still to upload for it (`OutboxUpload`), in the same transaction;
    /// `customJSON`: custom parameters to send with it (a reply's), a JSON object (`""`: none).
    @discardableResult
    package func enqueue(dialogID: DialogID, text: String, clientMessageID: String, createdAt: Int, owner: Int? = nil,
                        attachmentsJSON: String = "", uploads: [OutboxUpload] = [], customJSON: String = "") throws(MessageCacheError) -> Int64 {
        try wrapping {
            try database.transaction {
                // An entry already there keeps the files it has, as far as they got.
                if try insertOutboxEntry(dialogID: dialogID, text: text, clientMessageID: clientMessageID, createdAt: createdAt,
                                         owner: owner, attachmentsJSON: attachmentsJSON, customJSON: customJSON) {
                    try insertUploads(uploads, clientMessageID: clientMessageID)
                }
                return try database.queryFirst(
                    "SELECT seq FROM outbox WHERE client_message_id = ?", [.text(clientMessageID)]) { $0.int64(0) } ?? 0
            }
        }
    }

    /// Records several messages to one dialog like `enqueue`, all in one
    /// transaction: a stream of lines costs one commit, not one per line.
    package func enqueue(_ messages: [(clientMessageID: String, text: String)], dialogID: DialogID, createdAt: Int, owner: Int? = nil) throws(MessageCacheError) {
        try enqueue(messages.map { ($0.clientMessageID, $0.text, "") }, dialogID: dialogID, createdAt: createdAt, owner: owner)
    }

    /// `enqueue` of several messages with their attachments (JSON arrays, `""` for none).
    package func enqueue(_ messages: [(clientMessageID: String, text: String, attachmentsJSON: String)], dialogID: DialogID,
                        createdAt: Int, owner: Int? = nil) throws(MessageCacheError) {
        guard !messages.isEmpty else { return }
        try wrapping {
            try database.transaction {
                for message in messages {
                    try insertOutboxEntry(dialogID: dialogID, text: message.text, clientMessageID: message.clientMessageID,
                                          createdAt: createdAt, owner: owner, attachmentsJSON: message.attachmentsJSON)
                }
            }
        }
    }

    /// Whether it was inserted (false: an entry with that id is there already).
    @discardableResult
    private func insertOutboxEntry(dialogID: DialogID, text: String, clientMessageID: String, createdAt: Int, owner: Int?,
                                   attachmentsJSON: String = "", customJSON: String = "") throws -> Bool {
        try database.run(
            """
            INSERT INTO outbox (client_message_id, dialog_id, text, created_at, claimed_by, claimed_at, attachments, custom)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (client_message_id) DO NOTHING
            """,
            [.text(clientMessageID), .text(dialogID.rawValue), .text(text), .integer(Int64(createdAt)),
             owner.map { .integer(Int64($0)) } ?? .null, owner.map { _ in .integer(Int64(createdAt)) } ?? .null,
             .text(attachmentsJSON), .text(customJSON)]) > 0
    }

    /// Undelivered entries, oldest first, claimed or not, with their uploads.
    package func pending() throws(MessageCacheError) -> [OutboxEntry] {
        try wrapping {
            try database.transaction(.deferred) {
                try withUploads(try database.records("SELECT \(Self.outboxColumns) FROM outbox ORDER BY created_at, seq", [], Self.outboxEntry))
            }
        }
    }

    /// One undelivered entry with its uploads, or nil when it is not (or no longer) in the outbox.
    package func outboxEntry(clientMessageID: String) throws(MessageCacheError) -> OutboxEntry? {
        try wrapping {
            try database.transaction(.deferred) {
                try withUploads(try database.records("SELECT \(Self.outboxColumns) FROM outbox WHERE client_message_id = ?",
                                                   [.text(clientMessageID)], Self.outboxEntry)).first
            }
        }
    }

    /// Claims up to `limit` undelivered entries for `owner` (a process id),
    /// oldest first, in one `BEGIN IMMEDIATE` transaction, so two concurrent
    /// flushes never get the same entry. An entry is free when unclaimed,
    /// already claimed by `owner`, claimed at least `staleAfter` seconds
    /// before `now` (default: the clock), or claimed by a process `isAlive` says is gone.
    package func claim(
        limit: Int, owner: Int, now: Int? = nil, staleAfter: Int = 300,
        isAlive: (Int) -> Bool = ChatCache.processIsAlive
    ) throws(MessageCacheError) -> [OutboxEntry] {
        let limit = try Self.checkedLimit(limit)
        let now = now ?? Int(time(nil))
        return try wrapping {
            try database.transaction {
                var claimed: [OutboxEntry] = []
                var liveness: [Int: Bool] = [:]
                let candidates = try database.records(
                    "SELECT \(Self.outboxColumns) FROM outbox ORDER BY created_at, seq", [], Self.outboxEntry)
                for var entry in candidates where claimed.count < limit {
                    if let holder = entry.claimedBy, holder != owner {
                        let stale = (entry.claimedAt ?? 0) <= now - staleAfter
                        if !stale {
                            let alive = liveness[holder] ?? isAlive(holder)
                            liveness[holder] = alive
                            if alive { continue }
                        }
                    }
                    try database.run(
                        "UPDATE outbox SET claimed_by = ?, claimed_at = ? WHERE seq = ?",
                        [.integer(Int64(owner)), .integer(Int64(now)), .integer(entry.rowID)])
                    entry.claimedBy = owner
                    entry.claimedAt = now
                    claimed.append(entry)
                }
                return try withUploads(claimed)
            }
        }
    }

    /// Gives back a claim after a failed send: counts the attempt and keeps `error` for `outbox list`.
    package func releaseClaim(clientMessageID: String, owner: Int, error: String? = nil) throws(MessageCacheError) {
        try wrapping {
            try database.transaction {
                try database.run(
                    """
                    UPDATE outbox SET claimed_by = NULL, claimed_at = NULL, attempts = attempts + 1,
                        last_error = coalesce(?3, last_error)
                    WHERE client_message_id = ?1 AND claimed_by = ?2
                    """,
                    [.text(clientMessageID), .integer(Int64(owner)), .optional(error)])
            }
        }
    }

    /// Removes a sent entry and, in the same transaction, stores the server's
    /// copy of the message in history. Returns false if no such entry was pending.
    @discardableResult
    package func markDelivered(clientMessageID: String, serverMessage: CachedMessage? = nil) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.transaction { try moveToHistory(clientMessageID: clientMessageID, serverMessage: serverMessage) }
        }
    }

    /// `markDelivered` for many entries in one transaction (a stream of acks is
    /// not one commit per message). Returns how many were pending.
    @discardableResult
    package func markDelivered(_ deliveries: [(clientMessageID: String, serverMessage: CachedMessage)]) throws(MessageCacheError) -> Int {
        guard !deliveries.isEmpty else { return 0 }
        return try wrapping {
            try database.transaction {
                // The outbox first, then history in one go (`storeMessages` wants to write last).
                var removed = 0
                for delivery in deliveries {
                    try removeUploads(of: delivery.clientMessageID)
                    removed += try database.run("DELETE FROM outbox WHERE client_message_id = ?", [.text(delivery.clientMessageID)])
                }
                _ = try storeMessages(deliveries.map(\.serverMessage))
                return removed
            }
        }
    }

    private func moveToHistory(clientMessageID: String, serverMessage: CachedMessage?) throws -> Bool {
        try removeUploads(of: clientMessageID)
        let removed = try database.run("DELETE FROM outbox WHERE client_message_id = ?", [.text(clientMessageID)])
        if let serverMessage { _ = try storeMessage(serverMessage) }
        return removed > 0
    }

    /// Whether process `pid` exists (`kill(pid, 0)`; EPERM means it exists under another user).
    package static func processIsAlive(_ pid: Int) -> Bool {
        guard pid > 0, pid <= Int(Int32.max) else { return false }
        return kill(pid_t(pid), 0) == 0 || errno == EPERM
    }
}
