// File fields (docs/protocol.md §13): a file is a blob of nobody's (owner 0, so no user lists
// or deletes it through the content API) whose file the blob store keeps; the record's field
// describes it. Updating needs the record's update permission, reading its read permission.
internal import SQLiteStore
import SandboxJSON

extension CustomObjectStore {
    /// The record, when the caller may take `action` on it: 404 when unknown, 403 otherwise.
    package func record(_ id: String, in className: String, for action: RecordPermissions.Action,
                        caller: RecordCaller) throws -> CustomRecord {
        guard let record = try record(id, in: className) else { throw RecordRefusal.notFound }
        guard record.permissions[action].admits(caller.userId, tags: caller.tags, ownerId: record.ownerId) else {
            throw RecordRefusal.forbidden
        }
        return record
    }

    /// Makes `file`, whose bytes are stored under its uid already, the content of the record's
    /// File field `field` (made when the class has none by that name). The uid of the file it
    /// replaces, whose blob is gone (the caller removes the file), if there was one.
    package func attach(_ file: StoredFile, to id: String, in className: String, field: String, caller: RecordCaller) throws -> String? {
        try db.transaction {
            var record = try record(id, in: className, for: .update, caller: caller)
            var cls = try classForWriting(className)
            _ = try cls.fileField(field)
            let previous = record.file(field)?.uid
            let t = now()
            try db.run("""
                INSERT INTO blobs (uid, owner_id, content_type, name, public, size, completed_at, created_at, updated_at)
                VALUES (?, 0, ?, ?, 0, ?, ?, ?, ?)
                """, [.text(file.uid), .text(file.contentType), .text(file.name), .int(file.size), .real(t), .real(t), .real(t)])
            record.fields[field] = file.json
            record.updatedAt = Int(t)
            try write(record, new: false)
            try save(cls)
            if let previous { try removeBlobs([previous]) }
            return previous
        }
    }

    /// Empties the record's File field `field`: the uid of the file it held (its blob is gone;
    /// the caller removes the file). 404 when it holds none.
    package func detach(_ field: String, from id: String, in className: String, caller: RecordCaller) throws -> String {
        try db.transaction {
            var record = try record(id, in: className, for: .update, caller: caller)
            guard let file = record.file(field) else { throw RecordRefusal.notFound }
            record.fields[field] = nil
            record.updatedAt = Int(now())
            try write(record, new: false)
            try removeBlobs([file.uid])
            return file.uid
        }
    }

    /// The file the record's field `field` holds, for a caller who may read it; 404 when none.
    package func file(_ field: String, of id: String, in className: String, caller: RecordCaller) throws -> StoredFile {
        let record = try record(id, in: className, for: .read, caller: caller)
        guard let file = record.file(field) else { throw RecordRefusal.notFound }
        return file
    }
}
