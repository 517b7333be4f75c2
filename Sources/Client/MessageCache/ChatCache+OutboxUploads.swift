import SQLiteStore
internal import Glibc

/// The files of outbox entries (`OutboxUpload`): written with their entry, updated
/// at each step of their upload, and removed with it, the outbox's own copies of
/// the files too (never a file of the user's, `keeping` 'original').
extension ChatCache {
    static let uploadColumns = """
        client_message_id, position, source, file, keeping, name, type, content_type, size, modified_at, inode, device,
        state, blob_id, blob_uid, upload_url, upload_expires_at
        """

    static func upload(_ row: Row) -> (clientMessageID: String, upload: OutboxUpload) {
        let clientMessageID = row.string("client_message_id") ?? ""
        let queued = OutboxUpload(
            position: row.int("position"), source: row.string("source") ?? "", file: row.string("file") ?? "",
            keeping: OutboxUpload.Keeping(rawValue: row.string("keeping") ?? "") ?? .original,
            name: row.string("name") ?? "", type: row.string("type") ?? "", contentType: row.string("content_type") ?? "",
            size: row.int64("size"), modifiedAt: row.int64("modified_at"), inode: UInt64(bitPattern: row.int64("inode")),
            device: UInt64(bitPattern: row.int64("device")))
        let upload = OutboxUpload(stored: queued, state: OutboxUpload.State(rawValue: row.string("state") ?? "") ?? .queued,
                                  blobID: row.optionalInt("blob_id"), blobUID: row.string("blob_uid"),
                                  uploadURL: row.string("upload_url"), uploadExpiresAt: row.optionalInt("upload_expires_at"))
        return (clientMessageID, upload)
    }

    /// Inside the caller's transaction; an entry that already has its rows keeps them.
    func insertUploads(_ uploads: [OutboxUpload], clientMessageID: String) throws {
        for upload in uploads {
            try database.run(
                """
                INSERT INTO outbox_uploads (\(Self.uploadColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (client_message_id, position) DO NOTHING
                """,
                [.text(clientMessageID)] + Self.uploadValues(upload))
        }
    }

    private static func uploadValues(_ upload: OutboxUpload) -> [SQLiteValue] {
        [.int(upload.position), .text(upload.source), .text(upload.file), .text(upload.keeping.rawValue),
         .text(upload.name), .text(upload.type), .text(upload.contentType), .integer(upload.size), .integer(upload.modifiedAt),
         .integer(Int64(bitPattern: upload.inode)), .integer(Int64(bitPattern: upload.device)),
         .text(upload.state.rawValue), .optional(upload.blobID), .optional(upload.blobUID), .optional(upload.uploadURL),
         .optional(upload.uploadExpiresAt)]
    }

    /// `entries` with their uploads, in order (one query for all of them).
    func withUploads(_ entries: [OutboxEntry]) throws -> [OutboxEntry] {
        guard !entries.isEmpty else { return entries }
        var byEntry: [String: [OutboxUpload]] = [:]
        for (id, upload) in try database.records(
            "SELECT \(Self.uploadColumns) FROM outbox_uploads ORDER BY client_message_id, position", [], Self.upload) {
            byEntry[id, default: []].append(upload)
        }
        guard !byEntry.isEmpty else { return entries }
        return entries.map { entry in
            var entry = entry
            entry.uploads = byEntry[entry.clientMessageID] ?? []
            return entry
        }
    }

    /// Keeps an upload's new state. With `attachmentsJSON` (the last file completed),
    /// the entry gets the attachments its message carries, in the same transaction.
    /// Returns false when the entry is gone (delivered or discarded meanwhile).
    @discardableResult
    package func recordUpload(_ upload: OutboxUpload, of clientMessageID: String,
                             attachmentsJSON: String? = nil) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.transaction {
                let changed = try database.run(
                    """
                    UPDATE outbox_uploads SET state = ?, blob_id = ?, blob_uid = ?, upload_url = ?, upload_expires_at = ?
                    WHERE client_message_id = ? AND position = ?
                    """,
                    [.text(upload.state.rawValue), .optional(upload.blobID), .optional(upload.blobUID),
                     .optional(upload.uploadURL), .optional(upload.uploadExpiresAt), .text(clientMessageID), .int(upload.position)])
                if let attachmentsJSON {
                    try database.run("UPDATE outbox SET attachments = ? WHERE client_message_id = ?",
                                     [.text(attachmentsJSON), .text(clientMessageID)])
                }
                return changed > 0
            }
        }
    }

    /// The claim holder says it is still at work (a long upload), so that no flush
    /// takes its entry for stale meanwhile.
    package func renewClaim(clientMessageID: String, owner: Int, now: Int? = nil) throws(MessageCacheError) {
        let now = now ?? Int(time(nil))
        try wrapping {
            try database.transaction {
                try database.run("UPDATE outbox SET claimed_at = ? WHERE client_message_id = ? AND claimed_by = ?",
                                 [.int(now), .text(clientMessageID), .int(owner)])
            }
        }
    }

    /// Removes an entry that can never be sent as queued (bad input found while
    /// sending it, e.g. a file larger than the server takes), with its files.
    /// Returns false if there was no such entry.
    @discardableResult
    package func discard(clientMessageID: String) throws(MessageCacheError) -> Bool {
        try wrapping {
            try database.transaction {
                try removeUploads(of: clientMessageID)
                return try database.run("DELETE FROM outbox WHERE client_message_id = ?", [.text(clientMessageID)]) > 0
            }
        }
    }

    /// What `drop` did with an entry.
    package enum DropOutcome: Equatable, Sendable {
        case dropped
        case notFound
        /// A live process (this pid) is sending it right now.
        case inUse(Int)
    }

    /// Removes an entry the user gave up on (`chatctl outbox drop`), with its
    /// files, unless a live process holds a fresh claim on it: checked and removed
    /// in one transaction, so a flush cannot claim it in between.
    package func drop(
        clientMessageID: String, now: Int? = nil, staleAfter: Int = 300,
        isAlive: (Int) -> Bool = ChatCache.processIsAlive
    ) throws(MessageCacheError) -> DropOutcome {
        let now = now ?? Int(time(nil))
        return try wrapping {
            try database.transaction {
                let claims = try database.records(
                    "SELECT claimed_by, claimed_at FROM outbox WHERE client_message_id = ?",
                    [.text(clientMessageID)]) { (by: $0.optionalInt("claimed_by"), at: $0.optionalInt("claimed_at")) }
                guard let claim = claims.first else { return .notFound }
                if let holder = claim.by, (claim.at ?? 0) > now - staleAfter, isAlive(holder) {
                    return .inUse(holder)
                }
                try removeUploads(of: clientMessageID)
                try database.run("DELETE FROM outbox WHERE client_message_id = ?", [.text(clientMessageID)])
                return .dropped
            }
        }
    }

    /// Inside the caller's transaction: the entry's upload rows go, and the outbox's
    /// own copies of their files with them (unlinked before the commit: should it
    /// fail, the entry's files are all completed on the server anyway).
    func removeUploads(of clientMessageID: String) throws {
        // One look-up per delivered message (a stream of lines has no uploads).
        let files = try database.records(
            "SELECT file, keeping FROM outbox_uploads WHERE client_message_id = ?",
            [.text(clientMessageID)]) { (file: $0.string("file") ?? "", keeping: $0.string("keeping") ?? "") }
        guard !files.isEmpty else { return }
        try database.run("DELETE FROM outbox_uploads WHERE client_message_id = ?", [.text(clientMessageID)])
        for (file, keeping) in files where !file.isEmpty && keeping != OutboxUpload.Keeping.original.rawValue {
            _ = unlink(file)
        }
    }
}
