import SQLiteStore
internal import Glibc

/// The one error type of MessageCache. Descriptions carry the SQLite message
/// and SQL, never message text.
package struct MessageCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; a struct so kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case storage, invalidSearchQuery, invalidArgument, damaged, full, readOnly, newerSchema
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The database failed (open, I/O, locked past all retries, ...).
        package static let storage = Kind(.storage)
        /// The search text is not valid FTS5 syntax (e.g. an unbalanced `"`).
        package static let invalidSearchQuery = Kind(.invalidSearchQuery)
        /// An argument is out of range (a negative limit, a malformed id).
        package static let invalidArgument = Kind(.invalidArgument)
        /// The file is not a database, or a page of it is malformed (`SQLITE_CORRUPT`,
        /// `SQLITE_NOTADB`): `chatctl cache check` says what, `cache rebuild` mends it.
        package static let damaged = Kind(.damaged)
        /// A write found no room: the disk is full, a quota or a file-size limit was
        /// reached (`SQLITE_FULL`, or an I/O error with `ENOSPC`, `EFBIG`, `EDQUOT`).
        package static let full = Kind(.full)
        /// The file or its directory cannot be written (`SQLITE_READONLY`, a read-only
        /// directory or file system); reads still work where the file could be opened.
        package static let readOnly = Kind(.readOnly)
        /// The cache was written by a newer chatctl (`schemaVersion` > `knownSchemaVersion`):
        /// it is only read, never written or migrated down.
        package static let newerSchema = Kind(.newerSchema)

        package var description: String {
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

    package let kind: Kind
    package let message: String
    /// The SQLite error behind it, if any.
    package let underlying: SQLiteError?
    /// The cache file, when the error is about it as a whole (damaged, full, read-only, newer).
    package var path: String?
    /// For `newerSchema`: the file's schema version and the newest this program knows.
    package var schemaVersion: Int?
    package var knownSchemaVersion: Int?

    package init(kind: Kind, message: String, underlying: SQLiteError? = nil, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
        self.path = path
    }

    package var description: String {
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
