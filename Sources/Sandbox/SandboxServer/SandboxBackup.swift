// `chatctl-sandbox backup --db PATH OUT`: what a sandbox keeps, copied while it runs.
#if canImport(Glibc)
import Glibc
#endif
import SandboxBlobEndpoint
import SandboxLogging
import SandboxStorage

/// A copy of a sandbox's database (SQLite's online backup API: one consistent snapshot, the
/// sandbox goes on writing), its blob files (`DB.blobs/`) and CA file (`DB.ca.pem`) as
/// `OUT`, `OUT.blobs/` and `OUT.ca.pem`; `--db OUT` then starts a sandbox with the same users,
/// messages, files and certificate (kept inside the database).
///
/// The files are copied after the snapshot: a blob complete in it was stored before it, so
/// its file is there (one deleted in between is missing). Everything is written under
/// temporary names and renamed, the database last: an `OUT` that exists is a whole backup.
package enum SandboxBackup {
    /// What a backup copied.
    package struct Summary: Sendable {
        package var database: String
        package var blobFiles: Int
        package var blobBytes: Int
        package var caFile: String?
    }

    /// Copies `database` to `out`. Throws `.invalidInput` when a path the backup would write
    /// exists (nothing is overwritten), `.failure` when a copy failed (nothing is left behind).
    package static func run(database: String, to out: String) throws(SandboxFailure) -> Summary {
        let blobs = database + ".blobs", caFile = database + ".ca.pem"
        let outBlobs = out + ".blobs", outCA = out + ".ca.pem"
        for path in [out, outBlobs, outCA] where exists(path) {
            throw SandboxFailure("\(path) exists; a backup goes to a new path", hint: "nothing was written", kind: .invalidInput)
        }
        guard exists(database) else { throw SandboxFailure("no database at \(database)") }
        let suffix = ".partial-\(getpid())"
        let partial = (database: out + suffix, blobs: outBlobs + suffix, ca: outCA + suffix)
        func removePartials() {
            for path in [partial.database, partial.database + "-wal", partial.database + "-shm", partial.database + "-journal", partial.ca] {
                unlink(path)
            }
            for name in DirectoryListing.names(in: partial.blobs) ?? [] { unlink(partial.blobs + "/" + name) }
            rmdir(partial.blobs)
        }
        do throws(SandboxFailure) {
            try SandboxDatabase.backup(from: database, to: partial.database)
            var summary = Summary(database: out, blobFiles: 0, blobBytes: 0, caFile: nil)
            if exists(blobs) {
                guard mkdir(partial.blobs, 0o700) == 0 else { throw SandboxFailure("cannot create \(partial.blobs): \(lastError)") }
                // Temporary upload files (dot names) are uploads under way, not blobs.
                for name in DirectoryListing.names(in: blobs) ?? [] where !name.hasPrefix(".") {
                    guard let bytes = try copyFile(blobs + "/" + name, to: partial.blobs + "/" + name) else { continue }
                    summary.blobFiles += 1
                    summary.blobBytes += bytes
                }
            }
            if exists(caFile), try copyFile(caFile, to: partial.ca) != nil { summary.caFile = outCA }
            if exists(partial.blobs), rename(partial.blobs, outBlobs) != 0 { throw SandboxFailure("cannot create \(outBlobs): \(lastError)") }
            if summary.caFile != nil, rename(partial.ca, outCA) != 0 { throw SandboxFailure("cannot create \(outCA): \(lastError)") }
            guard rename(partial.database, out) == 0 else { throw SandboxFailure("cannot create \(out): \(lastError)") }
            return summary
        } catch {
            removePartials()
            throw error
        }
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static var lastError: String { String(cString: strerror(errno)) }

    /// Copies the regular file `source` to the new file `destination` (0600); its size, or nil
    /// when `source` is gone (a blob deleted meanwhile) or is no regular file.
    private static func copyFile(_ source: String, to destination: String) throws(SandboxFailure) -> Int? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return nil }
            throw SandboxFailure("cannot read \(source): \(lastError)")
        }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw SandboxFailure("cannot create \(destination): \(lastError)") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SandboxFailure("cannot read \(source): \(lastError)") }
            if n == 0 { break }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, n - offset) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw SandboxFailure("cannot write \(destination): \(lastError)") }
                offset += w
            }
            total += n
        }
        return total
    }
}
