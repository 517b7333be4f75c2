import Diagnostics
import MessageCache
import Messaging
import ChatIdentifiers

/// Marking messages read because a person asked (`chatctl read`, `history
/// --mark-read`), docs/protocol.md §6–7: over REST first, which is the record,
/// then `displayed` markers over chat so that their senders learn it at once.
/// Chat is connected only when a marker is to be sent; when that fails, the
/// messages stay marked read and a warning says the senders were not told.
struct ReadMarking {
    let session: MessagingSession
    let context: CommandContext
    /// False: REST only (`read --no-chat`).
    let overChat: Bool

    /// Marks those of `messages` that others sent and this user has not read;
    /// returns how many that was.
    func mark(_ messages: [CachedMessage], dialogID: DialogID) throws -> Int {
        let service = session.service
        let marked = try service.markRead(messages, dialogID: dialogID)
        let markable = marked.filter(\.isMarkable)
        guard overChat, !markable.isEmpty else { return marked.count }
        do {
            try sendDisplayed(for: markable)
        } catch {
            context.io.warn("marked read, but the senders were not told over chat (\(error))")
        }
        return marked.count
    }

    private func sendDisplayed(for messages: [CachedMessage]) throws {
        let engine = try context.chatEngine(for: session, settings: ChatEngine.Settings()) { _ in }
        try engine.connect(joining: [])
        try engine.tellDisplayed(messages)
    }
}
