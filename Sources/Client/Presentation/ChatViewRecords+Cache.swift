import ChatView
import MessageCache
import Messaging

/// What the chat view shows first, straight from the cache (its own connection, on the
/// terminal's thread): the dialogs, a dialog's newest page and what waits in the outbox
/// for it, with the names the cache knows.
extension ChatViewRecords {
    package static func dialogsLoaded(from service: MessagingService) -> ScreenEvent {
        let dialogs = (try? service.dialogs(type: nil, limit: nil, source: .cacheOnly)) ?? []
        let names = service.displayNames(Set(dialogs.flatMap(\.occupantIDs)))
        let shownTitles = (try? service.dialogNameIndex(of: dialogs))?.suffixedTitles() ?? [:]
        return .dialogsLoaded(dialogs.map { dialog($0, me: service.me, names: names, shownTitle: shownTitles[$0.id]) })
    }

    package static func conversationLoaded(_ id: String, from service: MessagingService) -> ScreenEvent {
        guard let found = try? service.cache.dialog(id: id) else { return .notice("dialog \(id) is not in the cache") }
        let messages = (try? service.cache.history(dialogID: id, limit: Conversation.pageSize)) ?? []
        let names = service.displayNames(Set(found.occupantIDs + messages.map(\.senderID)))
        let shownTitle = (try? service.dialogNameIndex(showing: [found]))?.suffixedTitles()[id]
        return .conversationLoaded(dialog(found, me: service.me, names: names, shownTitle: shownTitle),
                                   messages: messages.map { message($0, me: service.me, names: names) },
                                   pending: pending(of: id, inFlight: [], from: service),
                                   names: names.mapValues { TerminalText.sanitize($0, newlines: .asSpaces) })
    }

    /// A dialog's outbox entries; `inFlight`: those on the wire now.
    package static func pending(of dialogID: String, inFlight: Set<String>, from service: MessagingService) -> [ShownMessage] {
        let entries = (try? service.pendingOutbox(dialogID: dialogID)) ?? []
        return entries.map { pending($0, me: service.me, inFlight: inFlight) }
    }

    package static func messages(_ messages: [CachedMessage], from service: MessagingService) -> [ShownMessage] {
        let names = service.displayNames(Set(messages.map(\.senderID)))
        return messages.map { message($0, me: service.me, names: names) }
    }
}
