/// A stored blob (docs/protocol.md §8): its metadata; the bytes are a file named by `uid`.
struct BlobRecord {
    var id: Int
    /// 32 random hex digits and `00`, as the service's uids look; never all digits, so a
    /// path segment tells a uid from an id.
    var uid: String
    var ownerId: Int
    var contentType: String
    var name: String
    var isPublic: Bool
    /// nil until the upload is completed.
    var size: Int?
    var completedAt: Double?
    var createdAt: Double
    var updatedAt: Double

    var isComplete: Bool { completedAt != nil }

    /// The `blob` object with the service's keys (`blob_object_access` is added on creation).
    var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("uid", .string(uid)),
            ("content_type", .string(contentType)),
            ("name", .string(name)),
            ("size", .optionalInt(size)),
            ("blob_status", isComplete ? .string("complete") : .null),
            ("public", .bool(isPublic)),
            ("ref_count", .int(1)),
            ("lifetime", .int(0)),
            ("set_completed_at", completedAt.map { .string(SandboxTime.iso8601($0)) } ?? .null),
            ("last_read_access_ts", .null),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
        ])
    }
}
