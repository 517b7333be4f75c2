#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package struct QBSession: Sendable, Equatable {
    package var token: String
    package var applicationId: Int
    package var userId: Int
    /// From `QB-Token-ExpirationDate`, else two hours after the request.
    package var expiresAt: Date
    package init(token: String, applicationId: Int, userId: Int, expiresAt: Date) {
        self.token = token; self.applicationId = applicationId; self.userId = userId; self.expiresAt = expiresAt
    }
    /// 0 for an application-only session (docs/protocol.md §2).
    package var isUserSession: Bool { userId != 0 }
}
