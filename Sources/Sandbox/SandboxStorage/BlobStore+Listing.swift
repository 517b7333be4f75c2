// A user's blobs listed and changed (`GET /blobs.json`, `PUT /blobs/{id}.json`; docs/protocol.md §8).
internal import SQLiteStore

extension BlobStore {
    /// One page of `ownerId`'s blobs, newest first; with the total count.
    package func blobs(ownerId: Int, page: Int, perPage: Int) throws -> (total: Int, items: [BlobRecord]) {
        let total = try db.queryFirst("SELECT COUNT(*) FROM blobs WHERE owner_id = ?", [.int(ownerId)]) { $0.int(0) } ?? 0
        let items = try db.query("SELECT * FROM blobs WHERE owner_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                                 [.int(ownerId), .int(perPage), .int((page - 1) * perPage)], Self.blob(from:))
        return (total, items)
    }

    /// Sets the name and content type given (nil: as they are); with `restart`, the blob
    /// waits for a new upload (no size, not complete) as a new one does. The blob as stored now.
    package func update(id: Int, name: String?, contentType: String?, restart: Bool) throws -> BlobRecord? {
        var assignments = ["updated_at = ?"]
        var arguments: [SQLiteValue] = [.real(now())]
        if let name { assignments.append("name = ?"); arguments.append(.text(name)) }
        if let contentType { assignments.append("content_type = ?"); arguments.append(.text(contentType)) }
        if restart { assignments.append("size = NULL, completed_at = NULL") }
        try db.run("UPDATE blobs SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments + [.int(id)])
        return try blob(id: id)
    }
}
