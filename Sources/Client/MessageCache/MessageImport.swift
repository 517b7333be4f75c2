import SQLiteStore

/// Adds messages inside `ChatCache.importMessages`, through one prepared statement;
/// valid only during that call.
package struct MessageImport {
    let database: Database
    let insert: Statement
    /// Messages added so far (not counting ids already cached).
    package private(set) var added = 0

    /// Stores `message` unless its id is already cached.
    package mutating func add(_ message: CachedMessage) throws(MessageCacheError) {
        try ChatCache.wrapping { try insert.run(ChatCache.messageArguments(message)) }
        added += database.changes
    }
}

@available(*, unavailable)
extension MessageImport: Sendable {}
