public import SQLiteStore
internal import Glibc

/// The one error type of MessageCache. Descriptions carry the SQLite message
/// and SQL, never message text.
public struct MessageCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case storage, invalidSearchQuery, invalidArgument, damaged, full, readOnly, newerSchema
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database failed (open, I/O, locked past all retries, ...).
        public static let storage = Kind(.storage)
        /// The search text is not valid FTS5 syntax (e.g. an unbalanced `"`).
        public static let invalidSearchQuery = Kind(.invalidSearchQuery)
        /// An argument is out of range (a negative limit, a malformed id).
        public static let invalidArgument = Kind(.invalidArgument)
        /// The file is not a database, or a page of it is malformed (`SQLITE_CORRUPT`,
        /// `SQLITE_NOTADB`): `chatctl cache check` says what, `cache rebuild` mends it.
        public static let damaged = Kind(.damaged)
        /// A write found no room: the disk is full, a quota or a file-size limit was
        /// reached (`SQLITE_FULL`, or an I/O error with `ENOSPC`, `EFBIG`, `EDQUOT`).
        public static let full = Kind(.full)
        /// The file or its directory cannot be written (`SQLITE_READONLY`, a read-only
        /// directory or file system); reads still work where the file could be opened.
        public static let readOnly = Kind(.readOnly)
        /// The cache was written by a newer chatctl (`schemaVersion` > `knownSchemaVersion`):
        /// it is only read, never written or migrated down.
        public static let newerSchema = Kind(.newerSchema)

        public var description: String {
            switch base {
            case .storage: "storage"
            case .invalidSearchQuery: "invalid search query"
            case .invalidArgument: "invalid argument"
            case .damaged: "damaged"
            case .full: "full"
            case .readOnly: "read-only"
            case .newerSchema: "newer schema"
            }
        }
    }

    public let kind: Kind
    public let message: String
    /// The SQLite error behind it, if any.
    public let underlying: SQLiteError?
    /// The cache file, when the error is about it as a whole (damaged, full, read-only, newer).
    public var path: String?
    /// For `newerSchema`: the file's schema version and the newest this program knows.
    public var schemaVersion: Int?
    public var knownSchemaVersion: Int?

    public init(kind: Kind, message: String, underlying: SQLiteError? = nil, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
        self.path = path
    }

    public var description: String {
        if let underlying { return "message cache: \(underlying)" }
        return "message cache: \(message)"
    }

    /// The kind an SQLite failure is: damaged, full and read-only are told apart so
    /// that a person is told what to do; everything else is `storage`.
    static func kind(of error: SQLiteError) -> Kind {
        let errno = error.systemErrno ?? 0
        switch error.code {
        case .corrupt, .notADatabase: return .damaged
        case .full: return .full
        case .readOnly, .permission: return .readOnly
        case .ioError where [ENOSPC, EFBIG, EDQUOT].contains(errno): return .full
        case .ioError where [EACCES, EPERM, EROFS].contains(errno), .cantOpen where [EACCES, EPERM, EROFS].contains(errno):
            return .readOnly
        default: return .storage
        }
    }
}
