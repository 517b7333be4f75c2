/// A live session.
package struct SessionRecord {
    var id: Int
    package var token: String
    var applicationId: Int
    var userId: Int          // 0: application-only session
    var nonce: Int
    var timestamp: Int
    var createdAt: Double
    var updatedAt: Double
    var expiresAt: Double

    var json: JSONNode {
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
