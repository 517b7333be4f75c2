// Custom objects (docs/protocol.md §13) in the sandbox's SQLite database: classes made by the
// values written to them, records with their fields and permissions as JSON, deleted with
// their children (`_parent_id`); a File field's bytes are a blob's file (BlobStore).
internal import SQLiteStore
import SandboxClock
import SandboxJSON

/// Who asks: a user (0 for an application session) and their tags, which `open_for_groups` reads.
package struct RecordCaller {
    package var userId: Int
    package var tags: [String]

    package init(userId: Int, tags: [String]) {
        self.userId = userId
        self.tags = tags
    }
}

/// Why a request about records is refused, beyond a value it got wrong (a `FieldProblem`).
package enum RecordRefusal: Error, Equatable {
    /// No such record in the class (or no such class).
    case notFound
    /// The caller may not take that action on the record.
    case forbidden
    /// A record would hold more than `CustomObjectStore.maximumFieldsSize`.
    case tooLarge(String)
}

/// Custom object classes and records. Lives on the event-loop thread (not Sendable).
package final class CustomObjectStore {
    /// Most bytes a record's fields may take, as JSON: each answer carries them all.
    package static let maximumFieldsSize = 64 * 1024

    let db: Database
    let now: () -> Double
    private var ids = ObjectIdGenerator()

    package init(database: SandboxDatabase, now: @escaping () -> Double = SandboxTime.now) {
        db = database.db
        self.now = now
    }

    /// Runs `body` in one transaction: everything it writes, or (when it throws) nothing.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        try db.transaction { try body() }
    }

    // MARK: classes

    /// The class `name`, if a record of it was ever written.
    package func customClass(_ name: String) throws -> CustomClass? {
        try db.queryFirst("SELECT fields FROM custom_classes WHERE name = ?", [.text(name)]) {
            CustomClass(name: name, fields: CustomClass.fields(stored: $0.string(0) ?? "[]"))
        }
    }

    /// The class `name` (none yet: a new one without fields); 422 on a name no class may have.
    func classForWriting(_ name: String) throws -> CustomClass {
        guard CustomClass.isValidName(name) else {
            throw FieldProblem("class_name", "is not a name a class may have (a letter, then letters, digits and _): \(name)")
        }
        return try customClass(name) ?? CustomClass(name: name)
    }

    func save(_ cls: CustomClass) throws {
        try db.run("""
            INSERT INTO custom_classes (name, fields, created_at) VALUES (?, ?, ?)
            ON CONFLICT(name) DO UPDATE SET fields = excluded.fields
            """, [.text(cls.name), .text(cls.storedFields), .real(now())])
    }

    // MARK: records

    static func record(from row: Statement) -> CustomRecord {
        var fields: [String: JSONNode] = [:]
        if case .object(let members)? = try? JSONParser.parse(Array((row["fields"].textValue ?? "{}").utf8)) {
            for (name, value) in members { fields[name] = value }
        }
        return CustomRecord(id: row["id"].textValue ?? "", className: row["class_name"].textValue ?? "",
                            ownerId: row["user_id"].intValue ?? 0, parentId: row["parent_id"].textValue, fields: fields,
                            permissions: RecordPermissions.parse(stored: row["permissions"].textValue ?? ""),
                            createdAt: row["created_at"].intValue ?? 0, updatedAt: row["updated_at"].intValue ?? 0)
    }

    /// The record `id` of class `className`, whoever may read it.
    package func record(_ id: String, in className: String) throws -> CustomRecord? {
        try db.queryFirst("SELECT * FROM custom_objects WHERE id = ? AND class_name = ?", [.text(id), .text(className)], Self.record(from:))
    }

    /// The stored JSON of `fields`, refused past `maximumFieldsSize`.
    private static func storedFields(_ fields: [String: JSONNode]) throws -> String {
        let text = JSONNode.object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).serialized
        guard text.utf8.count <= maximumFieldsSize else {
            throw RecordRefusal.tooLarge("a record's fields may take \(maximumFieldsSize) bytes as JSON, these take \(text.utf8.count)")
        }
        return text
    }

    func write(_ record: CustomRecord, new: Bool) throws {
        let fields = try Self.storedFields(record.fields)
        if new {
            try db.run("""
                INSERT INTO custom_objects (id, class_name, user_id, parent_id, fields, permissions, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(record.id), .text(record.className), .int(record.ownerId), .optional(record.parentId), .text(fields),
                      .text(record.permissions.stored), .int(record.createdAt), .int(record.updatedAt)])
        } else {
            try db.run("UPDATE custom_objects SET parent_id = ?, fields = ?, permissions = ?, updated_at = ? WHERE id = ?",
                       [.optional(record.parentId), .text(fields), .text(record.permissions.stored), .int(record.updatedAt),
                        .text(record.id)])
        }
    }

    /// `input` applied to `record` (its fields, parent and permissions), the class growing by
    /// the fields it names first. Permissions change only by the owner's hand.
    private func applying(_ input: RecordInput, to record: CustomRecord, of cls: inout CustomClass, caller: RecordCaller) throws -> CustomRecord {
        var record = record
        try cls.apply(input.changes, to: &record.fields, fromForm: input.fromForm)
        if let parent = input.parentId {
            if let parent, !ObjectIdGenerator.isValid(parent) { throw FieldProblem("_parent_id", "is not a record id: \(parent)") }
            if let parent, parent == record.id { throw FieldProblem("_parent_id", "is the record itself") }
            record.parentId = parent?.lowercased()
        }
        if let node = input.permissions {
            let changed = try record.permissions.changed(by: node)
            if changed != record.permissions && caller.userId != record.ownerId { throw RecordRefusal.forbidden }
            record.permissions = changed
        }
        return record
    }

    /// New records of `className` owned by the caller, all or none: one bad value refuses them all.
    package func create(_ className: String, _ inputs: [RecordInput], caller: RecordCaller) throws -> (CustomClass, [CustomRecord]) {
        try db.transaction {
            var cls = try classForWriting(className)
            let t = Int(now())
            var made: [CustomRecord] = []
            for input in inputs {
                let blank = CustomRecord(id: ids.next(at: now()), className: className, ownerId: caller.userId, parentId: nil,
                                         fields: [:], permissions: .standard, createdAt: t, updatedAt: t)
                let record = try applying(input, to: blank, of: &cls, caller: caller)
                try write(record, new: true)
                made.append(record)
            }
            try save(cls)
            return (cls, made)
        }
    }

    /// The records `updates` name changed, all or none: an unknown id is left out (`notFound`),
    /// one the caller may not update refuses them all (403).
    package func update(_ className: String, _ updates: [(id: String, input: RecordInput)],
                        caller: RecordCaller) throws -> (cls: CustomClass, updated: [CustomRecord], notFound: [String]) {
        try db.transaction {
            guard var cls = try customClass(className) else { return (CustomClass(name: className), [], updates.map(\.id)) }
            var updated: [CustomRecord] = [], notFound: [String] = []
            for (id, input) in updates {
                guard let record = try self.record(id, in: className) else { notFound.append(id); continue }
                guard record.permissions.update.admits(caller.userId, tags: caller.tags, ownerId: record.ownerId) else {
                    throw RecordRefusal.forbidden
                }
                var changed = try applying(input, to: record, of: &cls, caller: caller)
                changed.updatedAt = Int(now())
                try write(changed, new: false)
                updated.append(changed)
            }
            try save(cls)
            return (cls, updated, notFound)
        }
    }

    /// Every record of the class that matches `criteria` and that the caller may update, changed
    /// by `input` (all or none).
    package func update(_ className: String, where criteria: RecordCriteria, _ input: RecordInput,
                        caller: RecordCaller) throws -> (cls: CustomClass, updated: [CustomRecord]) {
        try db.transaction {
            guard let cls = try customClass(className) else { return (CustomClass(name: className), []) }
            let matched = try select(cls, criteria, action: .update, caller: caller, order: "r.seq", limit: nil, skip: 0)
            let result = try update(className, matched.map { ($0.id, input) }, caller: caller)
            return (result.cls, result.updated)
        }
    }

    // MARK: deleting

    /// The records `ids` names deleted, with their children (`_parent_id`, at any depth): the
    /// ones deleted, the ones unknown, the ones the caller may not delete; and the uids of the
    /// files that went with them (their blobs are gone; the caller removes the files).
    package func delete(_ className: String, ids: [String],
                        caller: RecordCaller) throws -> (deleted: [String], notFound: [String], refused: [String], files: [String]) {
        try db.transaction {
            var deleted: [String] = [], notFound: [String] = [], refused: [String] = []
            for id in ids {
                guard let record = try self.record(id, in: className) else { notFound.append(id); continue }
                guard record.permissions.delete.admits(caller.userId, tags: caller.tags, ownerId: record.ownerId) else {
                    refused.append(id)
                    continue
                }
                deleted.append(record.id)
            }
            return (deleted, notFound, refused, try deleteWithChildren(deleted))
        }
    }

    /// Every record of the class matching `criteria` that the caller may delete, deleted as
    /// `delete(_:ids:caller:)` does: how many (children not counted), and the files that went.
    package func delete(_ className: String, where criteria: RecordCriteria, caller: RecordCaller) throws -> (count: Int, files: [String]) {
        try db.transaction {
            guard let cls = try customClass(className) else { return (0, []) }
            let matched = try select(cls, criteria, action: .delete, caller: caller, order: "r.seq", limit: nil, skip: 0)
            return (matched.count, try deleteWithChildren(matched.map(\.id)))
        }
    }

    /// Deletes `ids` and their descendants (any class) and their files' blobs; the file uids.
    func deleteWithChildren(_ ids: [String]) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let list = JSONNode.array(ids.map { .string($0) }).serialized
        let doomed = try db.query("""
            WITH RECURSIVE doomed(id) AS (
                SELECT value FROM json_each(?)
                UNION SELECT c.id FROM custom_objects c JOIN doomed ON c.parent_id = doomed.id
            )
            SELECT r.* FROM custom_objects r WHERE r.id IN (SELECT id FROM doomed)
            """, [.text(list)], Self.record(from:))
        let files = doomed.flatMap(\.fileUIDs)
        let doomedList = JSONNode.array(doomed.map { .string($0.id) }).serialized
        try db.run("DELETE FROM custom_objects WHERE id IN (SELECT value FROM json_each(?))", [.text(doomedList)])
        try db.run("UPDATE dialogs SET data_id = NULL WHERE data_id IN (SELECT value FROM json_each(?))", [.text(doomedList)])
        try removeBlobs(files)
        return files
    }

    func removeBlobs(_ uids: [String]) throws {
        guard !uids.isEmpty else { return }
        try db.run("DELETE FROM blobs WHERE uid IN (SELECT value FROM json_each(?))", [.text(JSONNode.array(uids.map { .string($0) }).serialized)])
    }

    // MARK: reading

    /// `(where, arguments)` for the records `caller` may take `action` on: open ones, their own,
    /// ones open to them by id or by one of their tags.
    static func permitted(_ action: RecordPermissions.Action, _ caller: RecordCaller) -> (String, [SQLiteValue]) {
        let path = "'$.\(action.rawValue)"
        let access = "json_extract(r.permissions, \(path).access')"
        var sql = "(\(access) = 'open'"
        var arguments: [SQLiteValue] = []
        if caller.userId != 0 {
            sql += " OR r.user_id = ?"
            sql += " OR (\(access) = 'open_for_users_ids' AND EXISTS (SELECT 1 FROM json_each(r.permissions, \(path).users_ids') pu WHERE pu.value = ?))"
            arguments += [.int(caller.userId), .text(String(caller.userId))]
            if !caller.tags.isEmpty {
                let marks = caller.tags.map { _ in "?" }.joined(separator: ",")
                sql += " OR (\(access) = 'open_for_groups' AND EXISTS (SELECT 1 FROM json_each(r.permissions, \(path).users_groups') pg WHERE pg.value IN (\(marks))))"
                arguments += caller.tags.map { .text($0) }
            }
        }
        return (sql + ")", arguments)
    }

    /// The records of `cls` matching `criteria` that the caller may take `action` on, in `order`
    /// (an SQL expression whitelisted by the caller), paged.
    func select(_ cls: CustomClass, _ criteria: RecordCriteria, action: RecordPermissions.Action, caller: RecordCaller,
                order: String, limit: Int?, skip: Int) throws -> [CustomRecord] {
        let (condition, arguments) = criteria.sql
        let (permitted, permittedArguments) = Self.permitted(action, caller)
        var sql = "SELECT r.* FROM custom_objects r WHERE r.class_name = ? AND \(condition) AND \(permitted) ORDER BY \(order)"
        var all: [SQLiteValue] = [.text(cls.name)] + arguments + permittedArguments
        if let limit {
            sql += " LIMIT ? OFFSET ?"
            all += [.int(limit), .int(skip)]
        }
        return try db.query(sql, all, Self.record(from:))
    }
}

@available(*, unavailable) extension CustomObjectStore: Sendable {}
