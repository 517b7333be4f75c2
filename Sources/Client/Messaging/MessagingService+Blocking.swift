import Diagnostics
import MessageCache

/// Whom the user blocks, as the cache last learnt it over chat (docs/protocol.md §7, "Privacy
/// lists"): what `dialogs` and the chat view mark without a connection of their own.
extension MessagingService {
    /// Keeps the block list just read; best effort (the server's list is what counts).
    package func rememberBlocked(_ userIDs: [Int]) {
        _ = try? cache.setBlockedUsers(userIDs)
    }

    /// Whom the user blocked when the list was last read; empty if never.
    package func blockedUsers() -> Set<Int> {
        (try? cache.blockedUsers()) ?? []
    }

    /// A message `user` refused because they block the user: never kept in the outbox, never
    /// tried again (exit 5).
    package func blockedFailure(by user: Int) -> Failure {
        let name = displayNames([user])[user] ?? "user \(user)"
        var failure = Failure(.blocked, "\(name) has blocked you; the message was not sent")
        failure.isPermanent = true
        return failure
    }
}
