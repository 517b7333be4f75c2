#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps a client's session alive with it (docs/protocol.md §2): told of every
/// expiry the server reports, asked once per request when the server says the
/// session is gone. AuthFlow's `RenewableSession` keeps the session file in step.
package protocol SessionRenewing: AnyObject {
    /// A request that carried the token succeeded; the server now keeps the
    /// session until `expiresAt` (its `QB-Token-ExpirationDate`, or two hours).
    func sessionExtended(until expiresAt: Date)
    /// The server answered 401 saying the session does not exist or expired.
    /// Returns a new session to repeat the request with, once, or nil when none
    /// can be had (no password at hand); throws when opening one failed, or when none can
    /// be had and the error should say more (a token's session: `sessionFromToken`).
    func renewSession(after error: QuickBloxError) throws(QuickBloxError) -> QBSession?
}
