// A full disk, as SQLite reports it: the sandbox answers 507 (REST) or resource-constraint
// (XMPP) while it lasts, and goes back to group commit once a write succeeds again.
internal import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

/// Whether the last write to the database found the disk full. Loop thread only, like the
/// database: REST sets it, chat reads it to store each message in a transaction of its own
/// (so a failure is that message's, answered at once, not a whole turn's).
package final class StorageSpace {
    package var isShort = false

    package init() {}

    /// Why `error` is a full disk, in words (`No space left on device`, `File too large` under
    /// a file-size limit, SQLite's `database or disk is full`); nil for any other failure.
    package static func shortage(in error: any Error) -> String? {
        guard let error = error as? SQLiteError else { return nil }
        if let code = error.systemErrno, [ENOSPC, EFBIG, EDQUOT].contains(code) { return String(cString: strerror(code)) }
        return error.code == .full ? error.code.description : nil
    }
}

@available(*, unavailable) extension StorageSpace: Sendable {}

extension SandboxDatabase {
    /// Rows changed since the database opened: whether a call wrote anything.
    package var totalChanges: Int { db.totalChanges }
}

extension ChatStore {
    /// Rows changed since the database opened: whether a call wrote anything.
    package var totalChanges: Int { db.totalChanges }
}
