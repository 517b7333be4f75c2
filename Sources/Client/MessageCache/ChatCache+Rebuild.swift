import SQLiteStore
internal import Glibc

/// `chatctl cache rebuild`: the outbox is copied out of the old file as far as SQLite
/// can still read it, the old file is moved aside (never deleted), and a fresh cache
/// gets the outbox back. Refilling dialogs and history from the server is the
/// caller's (Messaging's sync).
extension ChatCache {
    /// Rows read from a damaged file, by column name (a newer schema's extra columns
    /// are dropped on the way back in).
    typealias RowValues = [String: SQLiteValue]

    /// Rebuilds the cache at `path` and returns it opened, with what was saved.
    /// `now` (unix seconds) names the old file: `PATH.old-NOW`.
    package static func rebuild(path: String, now: Int) throws(MessageCacheError) -> (ChatCache, CacheRebuildReport) {
        let salvage = salvageOutbox(path: path)
        var movedTo: String?
        if Glibc.access(path, F_OK) == 0 {
            let aside = "\(path).old-\(now)"
            for suffix in ["", "-wal", "-shm"] where Glibc.access(path + suffix, F_OK) == 0 {
                guard rename(path + suffix, aside + suffix) == 0 else {
                    let code = errno
                    throw cacheError(
                        SQLiteError(extendedCode: .cantOpen, message: "cannot move \(path + suffix) aside: \(String(cString: strerror(code)))",
                                    systemErrno: code),
                        path: path, access: .readOnly(directory: directory(of: path)))
                }
            }
            movedTo = aside
        }
        let cache = try ChatCache(path: path)
        let (entries, uploads) = try cache.restore(salvage)
        return (cache, CacheRebuildReport(
            path: path, movedTo: movedTo, outboxSaved: entries, uploadsSaved: uploads,
            outboxLost: salvage.lost, outboxLossUnknown: salvage.lossUnknown))
    }

    struct OutboxSalvage {
        var entries: [RowValues] = []
        var uploads: [RowValues] = []
        var lost = 0
        var lossUnknown = false
    }

    /// The outbox and its files' rows, read row by row: forwards, then backwards from
    /// the end past a damaged page, then each entry an index still names by its key.
    /// An entry whose file rows may be among those lost is not kept: sent without a
    /// file it was queued with, it would be a different message. (A text-only entry in
    /// that range cannot be told from one, so it is counted lost too.)
    static func salvageOutbox(path: String) -> OutboxSalvage {
        var salvage = OutboxSalvage()
        guard Glibc.access(path, F_OK) == 0 else { return salvage }
        guard readPrefix(of: path, count: sqliteHeader.count) == sqliteHeader,
              let (database, _) = openForInspection(path: path) else {
            salvage.lossUnknown = true
            return salvage
        }
        defer { try? database.close() }

        var bySeq: [Int64: RowValues] = [:]
        var complete = scan(database, "SELECT * FROM outbox NOT INDEXED ORDER BY seq") { bySeq[$0.seq] = $0 }
        if !complete {
            _ = scan(database, "SELECT * FROM outbox NOT INDEXED ORDER BY seq DESC") { bySeq[$0.seq] = $0 }
        }
        // Every seq an index knows: the table's damaged pages hide rows the indexes still count.
        var known = Set(bySeq.keys)
        var indexRead = false
        for index in ["outbox_by_age", "sqlite_autoindex_outbox_1"] {
            indexRead = scan(database, "SELECT seq FROM outbox INDEXED BY \(index)") { known.insert($0.seq) } || indexRead
        }
        for seq in known.subtracting(bySeq.keys).sorted() {
            _ = scan(database, "SELECT * FROM outbox WHERE seq = \(seq)") { bySeq[$0.seq] = $0 }
        }
        complete = complete || indexRead

        var uploads: [String: RowValues] = [:]
        var uploadGap: ClosedRange<String>?
        var lastForward: String?, firstBackward: String?
        if !scan(database, "SELECT * FROM outbox_uploads ORDER BY client_message_id, position", { row in
            uploads[row.uploadKey] = row
            lastForward = row.clientMessageID
        }) {
            _ = scan(database, "SELECT * FROM outbox_uploads ORDER BY client_message_id DESC, position DESC") { row in
                uploads[row.uploadKey] = row
                firstBackward = row.clientMessageID
            }
            let low = lastForward ?? "", high = firstBackward ?? String(repeating: "\u{10FFFF}", count: 2)
            uploadGap = min(low, high)...max(low, high)
        }

        for (_, entry) in bySeq.sorted(by: { $0.key < $1.key }) {
            let id = entry.clientMessageID
            // Its files' rows may have been on the damaged page; unless its attachments were
            // all completed (then the message needs no row), it cannot be trusted.
            if let gap = uploadGap, gap.contains(id), entry.attachments.isEmpty {
                salvage.lost += 1
                continue
            }
            salvage.entries.append(entry)
            salvage.uploads += uploads.values.filter { $0.clientMessageID == id }.sorted { $0.position < $1.position }
        }
        salvage.lost += known.count - bySeq.count
        salvage.lossUnknown = !complete
        return salvage
    }

    /// Reads rows of `sql` one at a time until the end (true) or the first failure (false).
    private static func scan(_ database: Database, _ sql: String, _ row: (RowValues) -> Void) -> Bool {
        guard let statement = try? database.prepare(sql) else { return false }
        do {
            while try statement.step() {
                var values: RowValues = [:]
                for i in 0..<statement.columnCount { values[statement.columnName(i)] = statement.value(i) }
                row(values)
            }
            return true
        } catch {
            return false
        }
    }

    /// Puts salvaged rows into this (fresh) cache in one transaction; returns how many
    /// entries and file rows went in. Columns this schema does not have are dropped.
    func restore(_ salvage: OutboxSalvage) throws(MessageCacheError) -> (entries: Int, uploads: Int) {
        try wrapping {
            try database.transaction {
                let entries = try insert(salvage.entries, into: "outbox")
                let uploads = try insert(salvage.uploads, into: "outbox_uploads")
                return (entries, uploads)
            }
        }
    }

    private func insert(_ rows: [RowValues], into table: String) throws -> Int {
        let columns = Set(try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { $0.string(0) ?? "" })
        var inserted = 0
        for row in rows {
            let names = row.keys.filter(columns.contains).sorted()
            guard !names.isEmpty else { continue }
            let sql = "INSERT OR IGNORE INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
            inserted += try database.run(sql, names.map { row[$0] ?? .null })
        }
        return inserted
    }
}

private extension Dictionary where Key == String, Value == SQLiteValue {
    var seq: Int64 { if case .integer(let v) = self["seq"] { v } else { 0 } }
    var clientMessageID: String { if case .text(let v) = self["client_message_id"] { v } else { "" } }
    var position: Int64 { if case .integer(let v) = self["position"] { v } else { 0 } }
    var attachments: String { if case .text(let v) = self["attachments"] { v } else { "" } }
    var uploadKey: String { "\(clientMessageID)\u{0}\(position)" }

}
