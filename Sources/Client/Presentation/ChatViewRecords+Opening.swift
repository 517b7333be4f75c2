import ChatView
import MessageCache
import Messaging
import ChatIdentifiers

/// What the chat view shows first, made of what the messaging layer read of the cache
/// (`MessagingService.dialogsOverview`, `openedDialog`): the dialogs, a dialog's newest
/// page and what waits in the outbox for it.
extension ChatViewRecords {
    package static func dialogsLoaded(_ overview: DialogsOverview, me: Int) -> ScreenEvent {
        .dialogsLoaded(overview.dialogs.map { dialog($0, me: me, names: overview.names, shownTitle: overview.shownTitles[$0.id]) })
    }

    /// `opened` nil: the dialog `id` is not in the cache.
    package static func conversationLoaded(_ opened: OpenedDialog?, id: DialogID, me: Int) -> ScreenEvent {
        guard let opened else { return .notice("dialog \(id) is not in the cache") }
        return .conversationLoaded(dialog(opened.dialog, me: me, names: opened.names, shownTitle: opened.shownTitle),
                                   messages: messages(opened.messages, me: me, names: opened.names),
                                   pending: opened.pending.map { pending($0, me: me, inFlight: []) },
                                   names: opened.names.mapValues { TerminalText.sanitize($0, newlines: .asSpaces) })
    }

    package static func messages(_ messages: [CachedMessage], me: Int, names: [Int: String]) -> [ShownMessage] {
        messages.map { message($0, me: me, names: names) }
    }
}
