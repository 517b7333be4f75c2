import SQLiteStore

extension ChatCache {
    /// Stores many new messages in one transaction, for loading a large history
    /// at once (an import, a benchmark fixture). The search index is rebuilt once
    /// at the end instead of row by row, which is what makes it fast. `body` adds
    /// the messages one at a time, so they need never be in memory together; it may
    /// also call other cache methods, which join the transaction. A message whose
    /// id is already cached is left as it is. Returns how many were added.
    @discardableResult
    package func importMessages(_ body: (inout MessageImport) throws -> Void) throws(MessageCacheError) -> Int {
        try wrapping {
            let cacheSize = try database.queryFirst("PRAGMA cache_size") { $0.int(0) } ?? -2000
            try database.execute("PRAGMA cache_size = -262144")  // 256 MiB while loading
            defer { try? database.execute("PRAGMA cache_size = \(cacheSize)") }
            return try database.transaction {
                // DDL is transactional, so other connections see the old schema or the full result.
                try database.execute("DROP TRIGGER messages_fts_insert")
                var batch = MessageImport(database: database, insert: try database.prepare(Self.insertMessageSQL))
                try body(&batch)
                try database.execute("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')")
                try database.execute(CacheSchema.ftsInsertTriggerSQL)
                return batch.added
            }
        }
    }
}
