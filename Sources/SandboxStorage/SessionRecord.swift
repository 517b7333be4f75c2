import SandboxClock
import SandboxJSON

/// A live session.
package struct SessionRecord {
    package var id: Int
    package var token: String
    package var applicationId: Int
    package var userId: Int          // 0: application-only session
    package var nonce: Int
    package var timestamp: Int
    package var createdAt: Double
    package var updatedAt: Double
    package var expiresAt: Double

    package var json: JSONNode {
        .object([
            ("_id", .string(String(id))),
            ("id", .int(id)),
            ("application_id", .int(applicationId)),
            ("user_id", .int(userId)),
            ("nonce", .int(nonce)),
            ("ts", .int(timestamp)),
            ("token", .string(token)),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
        ])
    }
}
