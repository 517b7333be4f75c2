/// What a process may do with the cache it opened. Anything but `readWrite` still
/// reads (`dialogs --offline`, `history --offline`, `search`, `outbox`); every write
/// fails with a `MessageCacheError` that says why and what to do.
package enum CacheAccess: Hashable, Sendable {
    case readWrite
    /// The file or its directory cannot be written (a read-only directory or file
    /// system, a file without write permission).
    case readOnly(directory: String)
    /// Written by a newer chatctl: its schema `version` is above the `known` one.
    /// Read as far as the columns this program knows allow; never migrated down.
    case newerSchema(version: Int, known: Int)
}
