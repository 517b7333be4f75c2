#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct QBSession: Sendable, Equatable {
    public var token: String
    public var applicationId: Int
    public var userId: Int
    /// From `QB-Token-ExpirationDate`, else two hours after the request.
    public var expiresAt: Date
    public init(token: String, applicationId: Int, userId: Int, expiresAt: Date) {
        self.token = token; self.applicationId = applicationId; self.userId = userId; self.expiresAt = expiresAt
    }
    /// 0 for an application-only session (docs/protocol.md §2).
    public var isUserSession: Bool { userId != 0 }
}
