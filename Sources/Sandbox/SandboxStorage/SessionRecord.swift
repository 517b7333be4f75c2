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

    /// True for text of a session token's shape: 40 lowercase hex digits (`SecureRandom.token`).
    package static func looksLikeToken(_ text: String) -> Bool {
        text.utf8.count == 40 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

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
