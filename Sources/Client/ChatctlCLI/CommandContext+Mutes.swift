#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Messaging

extension CommandContext {
    /// Mutes for a while (`dialogs mute --for`) that have ended are undone on the server now,
    /// by the commands that look at muting (`dialogs`, `dialogs show`, `listen`, `chat`):
    /// QuickBlox keeps no expiry (docs/protocol.md §5). A failure is one line; the next try is
    /// the next such command.
    func endExpiredMutes(_ service: MessagingService) {
        let (_, failure) = service.endExpiredMutes(now: Int(Date().timeIntervalSince1970))
        if let failure { io.warn("a mute that ended is not undone on the server yet (\(failure.message)); the next command tries again") }
    }
}
