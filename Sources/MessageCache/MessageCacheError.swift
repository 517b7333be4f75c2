public import SQLiteStore

/// The one error type of MessageCache. Descriptions carry the SQLite message
/// and SQL, never message text.
public struct MessageCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case storage, invalidSearchQuery, invalidArgument
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database failed (open, I/O, locked past all retries, ...).
        public static let storage = Kind(.storage)
        /// The search text is not valid FTS5 syntax (e.g. an unbalanced `"`).
        public static let invalidSearchQuery = Kind(.invalidSearchQuery)
        /// An argument is out of range (a negative limit, a malformed id).
        public static let invalidArgument = Kind(.invalidArgument)

        public var description: String {
            switch base {
            case .storage: "storage"
            case .invalidSearchQuery: "invalid search query"
            case .invalidArgument: "invalid argument"
            }
        }
    }

    public let kind: Kind
    public let message: String
    /// The SQLite error behind it, if any.
    public let underlying: SQLiteError?

    public init(kind: Kind, message: String, underlying: SQLiteError? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { return "message cache: \(underlying)" }
        return "message cache: \(message)"
    }
}
