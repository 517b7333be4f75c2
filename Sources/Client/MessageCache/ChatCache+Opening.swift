import SQLiteStore
internal import Glibc

/// Opening the cache whatever state its file is in, and naming what went wrong in
/// words a person can act on (docs/protocol.md has no part in this: it is local).
extension ChatCache {
    static func open(path: String, busyTimeout: Duration) throws(MessageCacheError) -> (Database, CacheAccess) {
        let known = CacheSchema.migrator.latestVersion
        let directory = Self.directory(of: path)
        do {
            let database = try Database(path: path, options: .init(busyTimeout: busyTimeout, fileMode: 0o600))
            let version = try database.userVersion()
            if version > known {
                // Never migrate down, never write what the newer program may read differently.
                try database.execute("PRAGMA query_only = 1")
                return (database, .newerSchema(version: version, known: known))
            }
            if database.isReadOnly {
                guard version == known else { throw notWritable(path: path, version: version, known: known) }
                return (database, .readOnly(directory: directory))
            }
            try CacheSchema.migrator.migrate(database)
            return (database, .readWrite)
        } catch let error as SQLiteError where MessageCacheError.kind(of: error) == .readOnly {
            if let opened = try? openForReading(path: path, known: known) {
                return (opened.0, opened.1 ?? .readOnly(directory: directory))
            }
            throw cacheError(error, path: path, access: .readOnly(directory: directory))
        } catch let error as SQLiteError {
            throw cacheError(error, path: path, access: .readWrite)
        } catch let error as MessageCacheError {
            throw error
        } catch {
            throw MessageCacheError(kind: .storage, message: String(describing: error), path: path)
        }
    }

    /// A cache in a directory that cannot be written: read-only, then immutable (a
    /// WAL database needs its `-shm` file, which a read-only directory cannot hold;
    /// immutable reads the file as of its last checkpoint). Nil access: read-only.
    private static func openForReading(path: String, known: Int) throws -> (Database, CacheAccess?) {
        guard Glibc.access(path, F_OK) == 0 else { throw SQLiteError(extendedCode: .cantOpen, message: "no cache file yet") }
        let uri = "file:" + uriEscaped(path)
        for parameter in ["mode=ro", "immutable=1"] {
            guard let database = try? Database(path: uri + "?" + parameter, options: .init(readOnly: true)),
                  let version = try? database.userVersion(),
                  (try? database.queryFirst("SELECT count(*) FROM sqlite_schema") { $0.int(0) }) != nil else { continue }
            if version > known { return (database, .newerSchema(version: version, known: known)) }
            guard version == known else { throw notWritable(path: path, version: version, known: known) }
            return (database, nil)
        }
        throw SQLiteError(extendedCode: .cantOpen, message: "cannot open for reading")
    }

    /// An older cache that cannot be brought up to date here.
    private static func notWritable(path: String, version: Int, known: Int) -> MessageCacheError {
        MessageCacheError(
            kind: .readOnly,
            message: "cannot update the message cache \(path) (schema \(version), this chatctl uses \(known)): it cannot be written",
            path: path)
    }

    /// The error a person reads for an SQLite failure on the cache at `path`.
    static func cacheError(_ error: SQLiteError, path: String, access: CacheAccess) -> MessageCacheError {
        var kind = MessageCacheError.kind(of: error)
        if case .newerSchema = access, kind == .readOnly || error.extendedCode.primary == .readOnly { kind = .newerSchema }
        let message: String
        switch kind {
        case .damaged:
            message = "the message cache \(path) is damaged (\(error.message))"
        case .full:
            message = "cannot write the message cache \(path): no space left (the disk is full, or a quota or file-size limit was reached)"
        case .readOnly:
            var reason = error.systemErrno.map { String(cString: strerror($0)).lowercased() } ?? error.message
            if error.code == .readOnly { reason = "it is read-only" }
            message = "cannot write the message cache in \(directory(of: path)): \(reason)"
        case .newerSchema:
            if case .newerSchema(let version, let known) = access {
                var newer = MessageCacheError(
                    kind: .newerSchema,
                    message: "the cache was written by a newer chatctl (schema \(version), this one knows \(known))",
                    underlying: error, path: path)
                newer.schemaVersion = version
                newer.knownSchemaVersion = known
                return newer
            }
            message = error.message
        default:
            return MessageCacheError(kind: kind, message: error.message, underlying: error)
        }
        return MessageCacheError(kind: kind, message: message, underlying: error, path: path)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A path as the path part of an SQLite `file:` URI.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x80...:
                out += "%" + String(byte, radix: 16, uppercase: true)
            default:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }
}
