import SandboxJSON

/// A stored custom object record (docs/protocol.md §13).
package struct CustomRecord {
    package var id: String
    package var className: String
    package var ownerId: Int
    package var parentId: String?
    /// The fields that hold a value (a missing one is null), as the class's types store them;
    /// a File field holds `{"file_id","name","content_type","size"}`.
    package var fields: [String: JSONNode]
    package var permissions: RecordPermissions
    /// Unix seconds, as the service answers them.
    package var createdAt: Int
    package var updatedAt: Int

    /// The record as the service answers it: its keys in alphabetical order (`_id`,
    /// `_parent_id`, the fields, `created_at`, …), every field of the class present (null
    /// when unset), `permissions` last.
    package func json(in cls: CustomClass) -> JSONNode {
        var members: [(String, JSONNode)] = [
            ("_id", .string(id)), ("_parent_id", .optionalString(parentId)),
            ("created_at", .int(createdAt)), ("updated_at", .int(updatedAt)), ("user_id", .int(ownerId)),
        ]
        for field in cls.fields { members.append((field.name, fields[field.name] ?? .null)) }
        members.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        members.append(("permissions", permissions.json))
        return .object(members)
    }

    /// The file a File field holds, if any.
    package func file(_ field: String) -> StoredFile? {
        guard let node = fields[field], case .string(let uid)? = node["file_id"] else { return nil }
        var size = 0
        if case .number(let text)? = node["size"] { size = Int(text) ?? 0 }
        var name = "", contentType = "application/octet-stream"
        if case .string(let text)? = node["name"] { name = text }
        if case .string(let text)? = node["content_type"] { contentType = text }
        return StoredFile(uid: uid, name: name, contentType: contentType, size: size)
    }

    /// The uids of every file the record holds.
    var fileUIDs: [String] { fields.keys.compactMap { file($0)?.uid } }
}
