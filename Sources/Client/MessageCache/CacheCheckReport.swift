/// What `chatctl cache check` found in a cache file: whether it is a database at
/// all, its schema version against the one this program knows, what SQLite's
/// integrity check and the search index's own check say, and the outbox.
package struct CacheCheckReport: Hashable, Sendable {
    package var path: String
    /// False when there is no cache file yet (nothing to check, nothing wrong).
    package var exists: Bool
    /// The file's size in bytes, its write-ahead log included.
    package var size: Int64
    /// Whether the file starts with SQLite's header ("SQLite format 3").
    package var isDatabase: Bool
    /// `PRAGMA user_version`, nil when it could not be read.
    package var schemaVersion: Int?
    package var knownSchemaVersion: Int
    /// The problems `PRAGMA quick_check`, then `PRAGMA integrity_check`, report (empty: ok),
    /// and any read that failed on the way.
    package var problems: [String]
    /// The full-text index checked against the messages: nil when it was not checked
    /// (a newer schema, a file that is not writable here).
    package var searchIndexOK: Bool?
    /// Messages waiting in the outbox, nil when the outbox cannot be read.
    package var outboxCount: Int?

    /// Written by a newer chatctl: this one only reads it.
    package var isNewer: Bool { (schemaVersion ?? 0) > knownSchemaVersion }

    /// Nothing wrong: no file yet, or a database whose checks all passed at a known schema.
    package var isHealthy: Bool {
        !exists || (isDatabase && problems.isEmpty && schemaVersion != nil && !isNewer && searchIndexOK != false)
    }
}
