import SQLiteStore
internal import Glibc

/// `chatctl cache check`: looks at a cache file without trusting it (no migration,
/// nothing written), whatever state it is in.
extension ChatCache {
    /// The header every SQLite 3 database file starts with.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Checks the cache at `path`: header, schema version, `PRAGMA quick_check` (then
    /// `integrity_check` when that passed), the search index against the messages,
    /// and the outbox. Never throws: what cannot be read is a problem in the report.
    package static func check(path: String) -> CacheCheckReport {
        var report = CacheCheckReport(
            path: path, exists: false, size: 0, isDatabase: false, schemaVersion: nil,
            knownSchemaVersion: CacheSchema.migrator.latestVersion, problems: [], searchIndexOK: nil, outboxCount: nil)
        guard let header = readPrefix(of: path, count: sqliteHeader.count) else { return report }
        report.exists = true
        report.size = fileSize(path) + fileSize(path + "-wal")
        report.isDatabase = header == sqliteHeader
        guard report.isDatabase else {
            report.problems.append("the file is not an SQLite database (its header is damaged)")
            return report
        }
        guard let (database, writable) = openForInspection(path: path) else {
            report.problems.append("the file cannot be opened")
            return report
        }
        defer { try? database.close() }
        do { report.schemaVersion = try database.userVersion() } catch { report.problems.append(describe(error)) }
        for pragma in ["quick_check", "integrity_check(100)"] {
            do {
                let lines = try database.query("PRAGMA \(pragma)") { $0.string(0) ?? "" }
                if lines != ["ok"] { report.problems += lines; break }
            } catch {
                report.problems.append(describe(error))
                break
            }
        }
        if writable && !report.isNewer && report.problems.isEmpty {
            // FTS5's own check compares the index with the messages it indexes (rank 1).
            do {
                try database.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")
                report.searchIndexOK = true
            } catch let error as SQLiteError where MessageCacheError.kind(of: error) == .damaged {
                report.searchIndexOK = false
                report.problems.append("the search index does not match the messages (\(error.message))")
            } catch {}
        }
        report.outboxCount = try? database.queryFirst("SELECT count(*) FROM outbox") { $0.int(0) }
        return report
    }

    /// A connection that reads the file as it is: read-write without switching journal
    /// modes where the directory allows (the search index's check needs it), else read-only.
    static func openForInspection(path: String) -> (Database, writable: Bool)? {
        let uri = "file:" + uriEscaped(path)
        if Glibc.access(path, W_OK) == 0, Glibc.access(directory(of: path), W_OK) == 0,
           let database = try? Database(path: uri + "?mode=rw", options: .init(walMode: false)) {
            return (database, true)
        }
        for parameter in ["mode=ro", "immutable=1"] {
            if let database = try? Database(path: uri + "?" + parameter, options: .init(readOnly: true)),
               (try? database.userVersion()) != nil {
                return (database, false)
            }
        }
        return nil
    }

    static func describe(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? String(describing: error)
    }

    /// The first `count` bytes of the file (fewer if it is shorter), nil when it cannot be read.
    static func readPrefix(of path: String, count: Int) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
        return n < 0 ? nil : Array(buffer.prefix(n))
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
