import SQLiteStore

/// Adds messages inside `ChatCache.importMessages`, through one prepared statement;
/// valid only during that call.
public struct MessageImport {
    let database: Database
    let insert: Statement
    /// Messages added so far (not counting ids already cached).
    public private(set) var added = 0

    /// Stores `message` unless its id is already cached.
    public mutating func add(_ message: CachedMessage) throws(MessageCacheError) {
        try ChatCache.wrapping { try insert.run(ChatCache.messageArguments(message)) }
        added += database.changes
    }
}

@available(*, unavailable)
extension MessageImport: Sendable {}
