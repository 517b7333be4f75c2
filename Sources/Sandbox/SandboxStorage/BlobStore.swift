// Blobs (docs/protocol.md §8) in the sandbox's SQLite database; their bytes are files (`BlobFiles`).
internal import SQLiteStore
import SandboxClock
import SandboxCrypto

/// Blob metadata and who may read it. Lives on the event-loop thread (not Sendable).
package final class BlobStore {
    let db: Database
    let now: () -> Double

    package init(database: SandboxDatabase, now: @escaping () -> Double = SandboxTime.now) {
        db = database.db
        self.now = now
    }

    static func blob(from row: Statement) -> BlobRecord {
        BlobRecord(id: row["id"].intValue ?? 0, uid: row["uid"].textValue ?? "", ownerId: row["owner_id"].intValue ?? 0,
                   contentType: row["content_type"].textValue ?? "", name: row["name"].textValue ?? "",
                   isPublic: row["public"].intValue == 1, size: row["size"].intValue,
                   completedAt: row["completed_at"].doubleValue,
                   createdAt: row["created_at"].doubleValue ?? 0, updatedAt: row["updated_at"].doubleValue ?? 0)
    }

    /// A new uid: 32 random hex digits and `00`, redrawn in the (one in three million)
    /// case that it has no letter.
    package static func newUID() -> String {
        while true {
            let uid = Hex.string(SecureRandom.bytes(16)) + "00"
            if uid.utf8.contains(where: { $0 >= 97 }) { return uid }
        }
    }

    package func create(ownerId: Int, contentType: String, name: String, isPublic: Bool) throws -> BlobRecord {
        let t = now()
        let uid = Self.newUID()
        try db.run("""
            INSERT INTO blobs (uid, owner_id, content_type, name, public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(uid), .int(ownerId), .text(contentType), .text(name), .int(isPublic ? 1 : 0), .real(t), .real(t)])
        return BlobRecord(id: Int(db.lastInsertRowID), uid: uid, ownerId: ownerId, contentType: contentType, name: name,
                          isPublic: isPublic, size: nil, completedAt: nil, createdAt: t, updatedAt: t)
    }

    package func blob(id: Int) throws -> BlobRecord? {
        try db.queryFirst("SELECT * FROM blobs WHERE id = ?", [.int(id)], Self.blob(from:))
    }

    package func blob(uid: String) throws -> BlobRecord? {
        try db.queryFirst("SELECT * FROM blobs WHERE uid = ?", [.text(uid)], Self.blob(from:))
    }

    /// Records the upload as complete with its size.
    package func complete(id: Int, size: Int) throws {
        let t = now()
        try db.run("UPDATE blobs SET size = ?, completed_at = COALESCE(completed_at, ?), updated_at = ? WHERE id = ?",
                   [.int(size), .real(t), .real(t), .int(id)])
    }

    package func delete(id: Int) throws {
        try db.run("DELETE FROM blobs WHERE id = ?", [.int(id)])
    }

    /// Whether a message that refers to `uid` (an attachment whose `id` is it) lies in a
    /// dialog `userId` may read: one they occupy, or a public group.
    package func isShared(uid: String, with userId: Int) throws -> Bool {
        try db.queryFirst("""
            SELECT 1 FROM message_blobs mb
            JOIN messages m ON m.id = mb.message_id
            JOIN dialogs d ON d.id = m.dialog_id
            WHERE mb.blob_uid = ?
              AND (d.type = 1 OR EXISTS (SELECT 1 FROM dialog_occupants o WHERE o.dialog_id = d.id AND o.user_id = ?))
            LIMIT 1
            """, [.text(uid), .int(userId)]) { _ in true } ?? false
    }

    /// The secret that signs upload policies and download URLs, made on first use and
    /// kept, so that URLs handed out survive a restart on the same database.
    package func storageSecret() throws -> [UInt8] {
        try db.run("INSERT OR IGNORE INTO sandbox_secrets (name, value) VALUES ('storage', ?)", [.blob(SecureRandom.bytes(32))])
        guard let secret = try db.queryFirst("SELECT value FROM sandbox_secrets WHERE name = 'storage'", [], { $0.blob(0) }),
              let secret, !secret.isEmpty else {
            throw SQLiteError(extendedCode: .error, message: "the storage secret just stored cannot be read back")
        }
        return secret
    }
}

@available(*, unavailable) extension BlobStore: Sendable {}
