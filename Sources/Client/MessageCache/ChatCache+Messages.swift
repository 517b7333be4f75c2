import SQLiteStore
import ChatIdentifiers

extension ChatCache {
    /// What `message` reads; a query may select more after it (search's snippet and score).
    static let messageColumns =
        "m.id, m.dialog_id, m.sender_id, m.recipient_id, m.date_sent, m.text, m.raw_json, m.delivered_ids, m.read_ids, m.attachments"

    static func message(_ row: Row) -> CachedMessage {
        CachedMessage(
            id: row.string("id") ?? "", dialogID: DialogID(row.string("dialog_id") ?? ""), senderID: row.int("sender_id"),
            recipientID: row.int("recipient_id"), dateSent: row.int("date_sent"), text: row.string("text") ?? "",
            rawJSON: row.string("raw_json") ?? "", deliveredIDs: userIDs(row.string("delivered_ids")),
            readIDs: userIDs(row.string("read_ids")), attachmentsJSON: row.string("attachments") ?? "")
    }

    /// A list of user ids as the cache keeps it (a message's `delivered_ids` and `read_ids`,
    /// a dialog's `occupant_ids`): a JSON array of integers.
    static func userIDList(_ ids: [Int]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }

    /// The ids of a list `userIDList` wrote, or of the comma-separated text that the cache
    /// kept before (what migration 8 reads): what `Int("…")` reads of each comma-separated
    /// part between the brackets, an optional sign and digits; other parts are skipped.
    /// Read on the bytes: splitting the text by Character, then parsing each part
    /// generically, cost 4,000 instructions a row.
    static func userIDs(_ text: String?) -> [Int] {
        guard var text, !text.isEmpty else { return [] }
        return text.withUTF8 { bytes in
            var ids: [Int] = []
            var start = bytes.first == UInt8(ascii: "[") ? 1 : 0
            let count = bytes.count - (start == 1 && bytes.last == UInt8(ascii: "]") ? 1 : 0)
            guard start < count else { return ids }
            while start <= count {
                var end = start
                while end < count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                if let id = integer(UnsafeBufferPointer(rebasing: bytes[start..<end])) { ids.append(id) }
                start = end + 1
            }
            return ids
        }
    }

    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        return value
    }

    /// `first`, then the ids of `second` it lacks: the server's list stays as it
    /// gave it, and what markers taught the cache is not forgotten.
    static func union(_ first: [Int], _ second: [Int]) -> [Int] {
        var seen = Set(first)
        return first + second.filter { seen.insert($0).inserted }
    }

    /// Stores `messages` in one transaction, idempotent by `id`: a message
    /// already cached is updated in place (only if it changed), never
    /// duplicated; its delivered and read ids become the union of both. Returns how many were new.
    @discardableResult
    package func upsertMessages(_ messages: [CachedMessage]) throws(MessageCacheError) -> Int {
        try upsertMessagesReportingNew(messages).count { $0 }
    }

    /// `upsertMessages`, telling for each message, in order, whether it was new to
    /// the cache (a listener hands on only those).
    package func upsertMessagesReportingNew(_ messages: [CachedMessage]) throws(MessageCacheError) -> [Bool] {
        guard !messages.isEmpty else { return [] }
        return try wrapping { try database.transaction { try storeMessages(messages) } }
    }

    /// Inserts one message unless its id is cached; arguments from `messageArguments`.
    static let insertMessageSQL = """
        INSERT INTO messages (id, dialog_id, sender_id, recipient_id, date_sent, text, raw_json, delivered_ids, read_ids,
                              attachments, attachment_names)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, \(CacheSchema.attachmentNamesSQL("?10"))) ON CONFLICT (id) DO NOTHING
        """

    /// ?1 id … ?7 raw JSON, ?8 delivered and ?9 read ids, ?10 attachments.
    static func messageArguments(_ message: CachedMessage) -> [SQLiteValue] {
        [
            .text(message.id), .text(message.dialogID.rawValue), .integer(Int64(message.senderID)),
            .integer(Int64(message.recipientID)), .integer(Int64(message.dateSent)), .text(message.text),
            .text(message.rawJSON), .text(userIDList(message.deliveredIDs)), .text(userIDList(message.readIDs)),
            .text(message.attachmentsJSON),
        ]
    }

    /// What an update of a cached message sets besides receipts (`messageArguments` numbering).
    private static let updatedContentSQL = """
        dialog_id = ?2, sender_id = ?3, recipient_id = ?4, date_sent = ?5, text = ?6, raw_json = ?7,
        attachments = ?10, attachment_names = \(CacheSchema.attachmentNamesSQL("?10"))
        """

    /// `storeMessage` for each of `messages`, in order, inside the caller's transaction;
    /// for each, whether it was new. Those not cached yet (each id's first copy) go in
    /// with one INSERT … SELECT from a staging table: SQLite 3.40's FTS5 writes its
    /// pending index out at the start and end of every statement that fires its
    /// trigger, so one INSERT a message wrote the index a segment a message, most of
    /// the time of a stream (`send --lines`, `listen`). Call it before any other
    /// statement of the transaction that writes: a later one flushes the index again.
    func storeMessages(_ messages: [CachedMessage]) throws -> [Bool] {
        if messages.count == 1 { return [try storeMessage(messages[0])] }
        try database.run(Self.createStagingSQL)
        var isNew = [Bool](repeating: false, count: messages.count)
        var staged: Set<String> = []
        var later: [Int] = []
        // Both statements looked up once, not a message: finding one by its SQL (hashing
        // the text) cost as much as running the lookup.
        let isCached = try database.cachedStatement(Self.isCachedSQL)
        let stage = try database.cachedStatement(Self.stageMessageSQL)
        for (index, message) in messages.enumerated() {
            try isCached.bind([.text(message.id)])
            let cached = try isCached.step()
            try isCached.reset()
            guard !cached, staged.insert(message.id).inserted else {
                later.append(index)
                continue
            }
            try stage.run(Self.messageArguments(message))
            isNew[index] = true
        }
        if !staged.isEmpty {
            try database.run(Self.insertStagedSQL)
            try database.run("DELETE FROM temp.staged_messages")
        }
        // Already cached, or a second copy in this batch: updated as one at a time would.
        for index in later { _ = try storeMessage(messages[index]) }
        return isNew
    }

    /// The staging table of `storeMessages`: per connection, no index, no trigger.
    private static let createStagingSQL = """
        CREATE TEMP TABLE IF NOT EXISTS staged_messages (id, dialog_id, sender_id, recipient_id, date_sent, text, raw_json,
                                                         delivered_ids, read_ids, attachments)
        """
    private static let isCachedSQL = "SELECT 1 FROM messages WHERE id = ?"
    /// `messageArguments` numbering.
    private static let stageMessageSQL = "INSERT INTO temp.staged_messages VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    private static let insertStagedSQL = """
        INSERT INTO messages (id, dialog_id, sender_id, recipient_id, date_sent, text, raw_json, delivered_ids, read_ids,
                              attachments, attachment_names)
        SELECT id, dialog_id, sender_id, recipient_id, date_sent, text, raw_json, delivered_ids, read_ids,
               attachments, \(CacheSchema.attachmentNamesSQL("attachments"))
        FROM temp.staged_messages ORDER BY rowid
        """

    /// Inserts or updates one message inside the caller's transaction; true if it was new.
    func storeMessage(_ message: CachedMessage) throws -> Bool {
        let arguments = Self.messageArguments(message)
        if try database.run(Self.insertMessageSQL, arguments) > 0 { return true }
        guard !message.deliveredIDs.isEmpty || !message.readIDs.isEmpty else {
            // Nothing to say about receipts (a message heard over chat): the cached lists stay.
            try database.run(
                "UPDATE messages SET \(Self.updatedContentSQL) WHERE id = ?1 AND (raw_json IS NOT ?7 OR attachments IS NOT ?10)",
                arguments)
            return false
        }
        var merged = message
        if let known = try database.firstRecord(
            "SELECT delivered_ids, read_ids FROM messages WHERE id = ?", [.text(message.id)],
            { (Self.userIDs($0.string("delivered_ids")), Self.userIDs($0.string("read_ids"))) }) {
            merged.deliveredIDs = Self.union(message.deliveredIDs, known.0)
            merged.readIDs = Self.union(message.readIDs, known.1)
        }
        try database.run(
            """
            UPDATE messages SET \(Self.updatedContentSQL), delivered_ids = ?8, read_ids = ?9
            WHERE id = ?1 AND (raw_json IS NOT ?7 OR delivered_ids IS NOT ?8 OR read_ids IS NOT ?9 OR attachments IS NOT ?10)
            """,
            Self.messageArguments(merged))
        return false
    }

    static let historySQL = """
        SELECT \(messageColumns) FROM messages m
        WHERE m.dialog_id = ?1 AND m.date_sent < ?2 AND m.date_sent > ?3
        ORDER BY m.date_sent DESC, m.id DESC LIMIT ?4
        """

    static func historyArguments(dialogID: DialogID, limit: Int, before: Int?, since: Int?) -> [SQLiteValue] {
        [.text(dialogID.rawValue), .integer(before.map(Int64.init) ?? .max), .integer(since.map(Int64.init) ?? .min), .integer(Int64(limit))]
    }

    /// The newest `limit` messages of a dialog with `since < date_sent < before`,
    /// returned oldest first. Served by the `(dialog_id, date_sent, id)` index.
    package func history(dialogID: DialogID, limit: Int = 50, before: Int? = nil, since: Int? = nil) throws(MessageCacheError) -> [CachedMessage] {
        try wrapping {
            let limit = try Self.checkedLimit(limit)
            return try database.records(
                Self.historySQL, Self.historyArguments(dialogID: dialogID, limit: limit, before: before, since: since),
                Self.message
            ).reversed()
        }
    }

    /// `EXPLAIN QUERY PLAN` of the history query, to check it uses the index.
    package func historyQueryPlan(dialogID: DialogID, limit: Int = 50, before: Int? = nil, since: Int? = nil) throws(MessageCacheError) -> [String] {
        try wrapping {
            try database.queryPlan(Self.historySQL, Self.historyArguments(dialogID: dialogID, limit: limit, before: before, since: since))
        }
    }

    package func message(id: String) throws(MessageCacheError) -> CachedMessage? {
        try wrapping {
            try database.firstRecord("SELECT \(Self.messageColumns) FROM messages m WHERE m.id = ?", [.text(id)], Self.message)
        }
    }

    /// The number of cached messages, all dialogs or one.
    package func messageCount(dialogID: DialogID? = nil) throws(MessageCacheError) -> Int {
        try wrapping {
            if let dialogID {
                return try database.queryFirst("SELECT count(*) FROM messages WHERE dialog_id = ?", [.text(dialogID.rawValue)]) { $0.int(0) } ?? 0
            }
            return try database.queryFirst("SELECT count(*) FROM messages") { $0.int(0) } ?? 0
        }
    }

    // MARK: search

    // bm25 costs a posting-list scan (for the IDF) plus a lookup per scored
    // row, so only the newest `rankingWindow` matches are scored; the best
    // `limit` of them get a snippet and their message row.
    static let searchSQL = """
        WITH candidates AS MATERIALIZED (
            SELECT rowid AS seq, bm25(messages_fts, 1.0, 0.0, 1.0) AS score FROM messages_fts
            WHERE messages_fts MATCH ?5 ORDER BY rowid DESC LIMIT ?7),
        best AS MATERIALIZED (SELECT seq, score FROM candidates ORDER BY score LIMIT ?6)
        SELECT \(messageColumns), snippet(messages_fts, 0, ?1, ?2, ?3, ?4) AS snippet, best.score AS score
        FROM best JOIN messages m ON m.seq = best.seq JOIN messages_fts ON messages_fts.rowid = best.seq
        WHERE messages_fts MATCH ?5 AND (?8 IS NULL OR m.dialog_id = ?8)
        ORDER BY best.score, m.date_sent DESC, m.id DESC
        """

    /// Full-text search of message text and attachment names, best match first
    /// (bm25), with a snippet of the text marked per `style`. Only the newest `rankingWindow` matches
    /// are ranked (nil: all of them), which keeps a search for a very common
    /// word fast and favours recent messages. A malformed query throws
    /// `MessageCacheError` of kind `.invalidSearchQuery`.
    package func search(
        _ query: String, dialogID: DialogID? = nil, limit: Int = 20, style: SnippetStyle = .brackets,
        syntax: SearchSyntax = .fts5, rankingWindow: Int? = 5_000
    ) throws(MessageCacheError) -> [SearchHit] {
        let userQuery = try syntax.ftsQuery(query)
        guard !userQuery.allSatisfy(\.isWhitespace) else {
            throw MessageCacheError(kind: .invalidSearchQuery, message: "the search text is empty")
        }
        let limit = try Self.checkedLimit(limit)
        let window = try Self.checkedLimit(rankingWindow)
        // The user's query matches the text and the attachments' names; a dialog
        // filter is a second, indexed phrase (and is checked again on the row).
        var ftsQuery = "{text attachment_names} : ( \(userQuery) )"
        if let dialogID {
            ftsQuery = "dialog_id : \"\(dialogID.rawValue.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\""))\" AND " + ftsQuery
        }
        return try wrapping {
            do {
                return try database.records(
                    Self.searchSQL,
                    [
                        .text(style.open), .text(style.close), .text(style.ellipsis), .integer(Int64(style.tokens)),
                        .text(ftsQuery), .integer(Int64(limit)), .integer(Int64(window)), .optional(dialogID?.rawValue),
                    ]
                ) { row in
                    SearchHit(message: Self.message(row), snippet: row.string("snippet") ?? "", score: row.double("score"))
                }
            } catch let error as SQLiteError where error.extendedCode == .error {
                // The SQL is fixed, so a plain SQLITE_ERROR here is FTS5 rejecting the query text.
                throw MessageCacheError(kind: .invalidSearchQuery, message: error.message)
            }
        }
    }
}
