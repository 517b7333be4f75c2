import SandboxClock
import SandboxJSON

/// A stored blob (docs/protocol.md §8): its metadata; the bytes are a file named by `uid`.
package struct BlobRecord {
    package var id: Int
    /// 32 random hex digits and `00`, as the service's uids look; never all digits, so a
    /// path segment tells a uid from an id.
    package var uid: String
    package var ownerId: Int
    package var contentType: String
    package var name: String
    package var isPublic: Bool
    /// nil until the upload is completed.
    package var size: Int?
    package var completedAt: Double?
    package var createdAt: Double
    package var updatedAt: Double

    package var isComplete: Bool { completedAt != nil }

    /// The `blob` object with the reference's keys (`blob_object_access` is added on creation);
    /// no `ref_count` or `lifetime`, which the reference's FileObject no longer has.
    package var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("uid", .string(uid)),
            ("content_type", .string(contentType)),
            ("name", .string(name)),
            ("size", .optionalInt(size)),
            ("blob_status", isComplete ? .string("complete") : .null),
            ("public", .bool(isPublic)),
            ("set_completed_at", completedAt.map { .string(SandboxTime.iso8601($0)) } ?? .null),
            ("last_read_access_ts", .null),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
        ])
    }
}
