// The blobs' bytes on disk: one flat directory beside the database (docs/protocol.md §8).
#if canImport(Glibc)
import Glibc
#endif
import SandboxCrypto
import SandboxLogging

/// One directory of files named by blob uid. A file appears under its uid only once
/// its upload is complete (it streams into `.upload-{uid}-{random}` and is renamed),
/// so a reader never sees half a file. Only paths: safe to use from any thread.
package struct BlobFiles: Sendable {
    let directory: String
    private static let temporaryPrefix = ".upload-"

    /// A key that may name a file here: 1–64 lowercase hex digits (what blob uids are).
    package static func isValidKey(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// Creates `directory` (0700) when missing, and removes what uploads cut short by a
    /// crash left behind.
    package static func prepare(directory: String) throws(SandboxFailure) -> BlobFiles {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw SandboxFailure("cannot create the blob directory \(directory): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw SandboxFailure("the blob directory \(directory) is not a directory")
        }
        let files = BlobFiles(directory: directory)
        for name in files.entries() where name.hasPrefix(temporaryPrefix) { unlink(directory + "/" + name) }
        return files
    }

    /// The names in the directory but `.` and `..`.
    func entries() -> [String] { DirectoryListing.names(in: directory) ?? [] }

    func path(of key: String) -> String { directory + "/" + key }

    /// The size of the complete file of `key`; nil when there is none.
    package func size(of key: String) -> Int? {
        var status = stat()
        guard Self.isValidKey(key), stat(path(of: key), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Deletes the file of `key` (a download already under way keeps its open descriptor).
    package func remove(_ key: String) {
        guard Self.isValidKey(key) else { return }
        unlink(path(of: key))
    }

    /// Opens the complete file of `key` for reading: its descriptor and size, or nil.
    func openForReading(_ key: String) -> (descriptor: Int32, size: Int)? {
        guard Self.isValidKey(key) else { return nil }
        let fd = open(path(of: key), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        return (fd, Int(status.st_size))
    }

    /// How storing a whole file (`store`) ended.
    package enum StoreOutcome: Equatable {
        case stored
        /// The disk is full, or the file-size limit reached.
        case noSpace
        case failed(String)
    }

    /// Keeps `bytes` as `key`'s complete file, as an upload does: written aside, then renamed,
    /// so that no reader sees half of it; nothing is left when it fails.
    package func store(_ key: String, bytes: [UInt8]) -> StoreOutcome {
        guard Self.isValidKey(key) else { return .failed("not a file key: \(key)") }
        do throws(StorageError) {
            let writer = try makeWriter(for: key)
            var failure: StorageError?
            bytes.withUnsafeBytes { raw in
                do throws(StorageError) { try writer.append(raw) } catch { failure = error }
            }
            if let failure { throw failure }
            try writer.commit()
            return .stored
        } catch {
            return error == .insufficientStorage ? .noSpace : .failed(error.message)
        }
    }

    /// A new temporary file for `key`'s upload.
    func makeWriter(for key: String) throws(StorageError) -> BlobFileWriter {
        let temporary = directory + "/" + Self.temporaryPrefix + key + "-" + Hex.string(SecureRandom.bytes(6))
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .internalError("cannot store the file: \(String(cString: strerror(errno)))")
        }
        return BlobFileWriter(descriptor: fd, temporaryPath: temporary, finalPath: path(of: key))
    }
}

/// One upload streaming to disk, through a buffer so that small pieces cost few writes.
/// Removes its temporary file unless `commit()` renamed it. Confined to one thread.
final class BlobFileWriter {
    private static let bufferSize = 256 * 1024
    private var descriptor: Int32
    private let temporaryPath: String
    private let finalPath: String
    private var buffer: [UInt8] = []
    /// Renamed or removed: nothing more to do.
    private var finished = false
    /// Bytes taken so far.
    private(set) var count = 0

    fileprivate init(descriptor: Int32, temporaryPath: String, finalPath: String) {
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
        self.finalPath = finalPath
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit { discard() }

    func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        count += bytes.count
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes what is buffered, closes the file and gives it its final name.
    func commit() throws(StorageError) {
        try flush()
        let fd = descriptor
        descriptor = -1
        guard close(fd) == 0 else { throw .internalError("cannot store the file: \(String(cString: strerror(errno)))") }
        guard rename(temporaryPath, finalPath) == 0 else {
            throw .internalError("cannot store the file: \(String(cString: strerror(errno)))")
        }
        finished = true
    }

    /// Closes and removes the temporary file. Idempotent; nothing after a commit.
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if !finished {
            unlink(temporaryPath)
            finished = true
        }
    }

    private func flush() throws(StorageError) {
        guard !buffer.isEmpty else { return }
        var failure: StorageError?
        buffer.withUnsafeBytes { raw in
            do throws(StorageError) { try writeAll(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                // A full disk (or the file-size limit): 507, and the caller removes the partial file.
                if [ENOSPC, EFBIG, EDQUOT].contains(code) {
                    SpaceNotice.process.short("an upload", reason: String(cString: strerror(code)))
                    throw .insufficientStorage
                }
                throw .internalError("cannot store the file: \(String(cString: strerror(code)))")
            }
            offset += n
        }
    }
}
