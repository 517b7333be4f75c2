#if canImport(Glibc)
import Glibc
#endif

/// Where the bytes of a file wait until they are uploaded, possibly by a later
/// process (`outbox flush`), and what the file was like when it was queued, so
/// that a file changed or removed since is refused rather than sent as another
/// message than the one queued (`UploadSource.kept`).
package struct KeptUpload: Sendable, Equatable {
    package enum Method: String, Sendable, CaseIterable {
        /// A copy-on-write clone (`FICLONE`) in the outbox's directory: the bytes as
        /// they were, whatever happens to the file, at no cost in time or space.
        case clone
        /// A hard link in the outbox's directory: the file outlives being deleted
        /// or replaced (as editors save); an edit in place is noticed and refused.
        case link
        /// Standard input or a pipe, copied into the outbox's directory (mode 0600).
        case spool
        /// The file itself, by its absolute path (a file system with neither clones
        /// nor links to it): an edit or a removal is noticed and refused.
        case original
    }

    package var method: Method
    /// An absolute path.
    package var path: String
    package var size: Int64
    /// Modification time, nanoseconds since the epoch.
    package var modifiedAt: Int64
    package var inode: UInt64
    package var device: UInt64

    package init(method: Method, path: String, size: Int64, modifiedAt: Int64, inode: UInt64, device: UInt64) {
        self.method = method; self.path = path; self.size = size; self.modifiedAt = modifiedAt
        self.inode = inode; self.device = device
    }

    /// Whether `path` is the outbox's own copy, to remove with its entry (never the user's file).
    package var isOwnCopy: Bool { method != .original }

    /// The same file, unchanged: its inode, size and modification time.
    func matches(_ info: stat) -> Bool {
        UInt64(info.st_ino) == inode && UInt64(info.st_dev) == device && Int64(info.st_size) == size
            && Self.nanoseconds(info.st_mtim) == modifiedAt
    }

    static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
