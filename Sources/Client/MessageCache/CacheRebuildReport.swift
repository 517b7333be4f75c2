/// What `ChatCache.rebuild` did: where the old file went and how much of its outbox
/// came through into the fresh cache.
package struct CacheRebuildReport: Hashable, Sendable {
    package var path: String
    /// Where the old file was moved (with its `-wal`), nil when there was none.
    package var movedTo: String?
    /// Outbox entries put back into the fresh cache, with their files' rows.
    package var outboxSaved: Int
    package var uploadsSaved: Int
    /// Entries that could not be read back whole (a damaged page, a file's row lost):
    /// known to have been there, not put back.
    package var outboxLost: Int
    /// True when a part of the outbox could not be read and its size is not known
    /// either, so `outboxLost` may count too few.
    package var outboxLossUnknown: Bool
}
