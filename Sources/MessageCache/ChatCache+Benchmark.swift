import SQLiteStore

extension ChatCache {
    /// Fills the cache with `dialogs` synthetic group dialogs of
    /// `messagesPerDialog` messages each, in one transaction with prepared
    /// statements reused, for `make bench`. Deterministic: the same arguments
    /// give the same ids, dates and text. Dialog `i` (from 0) has id
    /// `ChatCache.benchmarkDialogID(i)` and name `bench-i`; message `k` of
    /// dialog `i` is sent at `startDate + k * 60 + i`. Texts draw from common
    /// words (`hello`, `deploy`, ...) and rare ones (`zeta0042`, ...).
    /// Returns the number of messages added (0 for ones already cached).
    @discardableResult
    public func populateForBenchmark(dialogs: Int, messagesPerDialog: Int, startDate: Int = 1_600_000_000) throws(MessageCacheError) -> Int {
        guard dialogs >= 0, messagesPerDialog >= 0 else {
            throw MessageCacheError(kind: .invalidArgument, message: "counts must not be negative")
        }
        return try wrapping {
            let cacheSize = try database.queryFirst("PRAGMA cache_size") { $0.int(0) } ?? -2000
            try database.execute("PRAGMA cache_size = -262144")  // 256 MiB while loading
            defer { try? database.execute("PRAGMA cache_size = \(cacheSize)") }
            return try database.transaction {
                // Index once at the end instead of row by row; DDL is transactional,
                // so other connections see the old schema or the full result.
                try database.execute("DROP TRIGGER messages_fts_insert")
                var random = SplitMix64(seed: 0x5EED)
                let insertMessage = try database.prepare(
                    """
                    INSERT INTO messages (id, dialog_id, sender_id, recipient_id, date_sent, text, raw_json)
                    VALUES (?, ?, ?, 0, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                    """)
                var written = 0
                var benchDialogs: [CachedDialog] = []
                for d in 0..<dialogs {
                    let dialogID = Self.benchmarkDialogID(d)
                    let occupants = [1, 2 + d % 50, 100 + d]
                    var lastText = ""
                    var lastDate: Int?
                    for k in 0..<messagesPerDialog {
                        let id = Self.hex(UInt64(0x5E00_0000_0000) &+ UInt64(d) << 24 &+ UInt64(k), width: 24)
                        let date = startDate + k * 60 + d
                        let sender = occupants[Int(random.next() % UInt64(occupants.count))]
                        let text = Self.benchmarkText(&random)
                        let json = #"{"_id":"\#(id)","chat_dialog_id":"\#(dialogID)","message":"\#(text)","sender_id":\#(sender),"recipient_id":0,"date_sent":\#(date),"read_ids":[\#(sender)],"delivered_ids":[\#(sender)],"attachments":[]}"#
                        try insertMessage.run([
                            .text(id), .text(dialogID), .integer(Int64(sender)), .integer(Int64(date)), .text(text), .text(json),
                        ])
                        written += database.changes
                        lastText = text
                        lastDate = date
                    }
                    let json = #"{"_id":"\#(dialogID)","type":2,"name":"bench-\#(d)","occupants_ids":[\#(occupants.map(String.init).joined(separator: ","))],"last_message":"\#(lastText)","last_message_date_sent":\#(lastDate.map(String.init) ?? "null"),"unread_messages_count":0,"updated_at":"2020-09-13T12:26:40Z"}"#
                    benchDialogs.append(CachedDialog(
                        id: dialogID, type: .group, name: "bench-\(d)", occupantIDs: occupants,
                        lastMessage: lastDate == nil ? nil : lastText, lastMessageDateSent: lastDate,
                        unreadCount: 0, updatedAt: startDate, rawJSON: json))
                }
                try database.execute("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')")
                try database.execute(CacheSchema.ftsInsertTriggerSQL)
                try upsertDialogs(benchDialogs)  // joins this transaction as a savepoint
                return written
            }
        }
    }

    /// The id of benchmark dialog `index`.
    public static func benchmarkDialogID(_ index: Int) -> String {
        hex(UInt64(0xD1A1_0000_0000) &+ UInt64(index), width: 24)
    }

    private static let commonWords = [
        "hello", "deploy", "meeting", "lunch", "review", "build", "release", "coffee", "ticket", "server",
        "tomorrow", "today", "please", "thanks", "update", "merge", "branch", "test", "failed", "passed",
        "customer", "invoice", "design", "draft", "call", "agenda", "notes", "budget", "report", "weekend",
        "monday", "friday", "database", "cache", "latency", "outage", "incident", "metrics", "dashboard", "alert",
    ]

    private static func benchmarkText(_ random: inout SplitMix64) -> String {
        let count = 5 + Int(random.next() % 10)
        var words: [String] = []
        words.reserveCapacity(count)
        for _ in 0..<count {
            let r = random.next()
            if r % 10 < 7 {
                words.append(commonWords[Int((r >> 8) % UInt64(commonWords.count))])
            } else {
                words.append("zeta" + hex((r >> 8) % 5000, width: 4))
            }
        }
        return words.joined(separator: " ")
    }

    static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A small deterministic generator for reproducible benchmark data.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
