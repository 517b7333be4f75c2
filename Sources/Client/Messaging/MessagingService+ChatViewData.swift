import MessageCache
import ChatIdentifiers

/// What the chat view shows first, read from the cache (its own connection, on the terminal's
/// thread): the dialogs, and a dialog's newest page with what waits in the outbox for it, with
/// the names the cache knows. Values only: Presentation makes the view's records of them.
extension MessagingService {
    /// Every cached dialog, the names of their occupants, and the titles that need the end of
    /// their id to tell them apart.
    package func dialogsOverview() -> DialogsOverview {
        let dialogs = (try? self.dialogs(type: nil, limit: nil, source: .cacheOnly)) ?? []
        return DialogsOverview(dialogs: dialogs, names: displayNames(Set(dialogs.flatMap(\.occupantIDs))),
                               shownTitles: (try? dialogNameIndex(of: dialogs))?.suffixedTitles() ?? [:])
    }

    /// The drafts the chat view left in dialogs (none when the cache cannot say).
    package func drafts() -> [CachedDraft] {
        (try? cache.drafts()) ?? []
    }

    /// Keeps what was typed in a dialog for the chat view's next run (empty text: none);
    /// best effort, a cache that cannot write it loses only the draft.
    package func keepDraft(_ draft: CachedDraft) {
        try? cache.keepDraft(draft, at: now())
    }

    /// The dialog with its newest `pageSize` messages and its outbox entries; nil when the
    /// cache has no such dialog.
    package func openedDialog(id: DialogID, pageSize: Int) -> OpenedDialog? {
        guard let dialog = cachedDialog(id: id) else { return nil }
        let messages = (try? cache.history(dialogID: id, limit: pageSize)) ?? []
        return OpenedDialog(dialog: dialog, messages: messages,
                            names: displayNames(Set(dialog.occupantIDs + messages.map(\.senderID))),
                            shownTitle: (try? dialogNameIndex(showing: [dialog]))?.suffixedTitles()[id],
                            pending: (try? pendingOutbox(dialogID: id)) ?? [])
    }
}

/// The cached dialogs as a list shows them.
package struct DialogsOverview {
    package let dialogs: [CachedDialog]
    /// Display names of their occupants.
    package let names: [Int: String]
    /// By dialog id: the title with the end of the id, for dialogs that share a title.
    package let shownTitles: [DialogID: String]
}

/// A dialog as the chat view opens it.
package struct OpenedDialog {
    package let dialog: CachedDialog
    /// Its newest page, oldest first.
    package let messages: [CachedMessage]
    /// Display names of its occupants and of the page's senders.
    package let names: [Int: String]
    /// Its title with the end of its id, when another dialog shares it.
    package let shownTitle: String?
    /// What waits in the outbox for it, oldest first.
    package let pending: [OutboxEntry]
}
