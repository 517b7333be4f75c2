/// The open dialog: a window of its history (at most `windowLimit` messages; more
/// are read back from the cache as the user scrolls), what waits in the outbox,
/// where the view is scrolled to, the selected cell, and who is typing.
package struct Conversation: Hashable, Sendable {
    package var dialog: DialogSummary
    /// The first messages have come (`conversationLoaded`); before that nothing is paged.
    package var loaded = false
    /// Oldest first, by date then id.
    package var messages: [ShownMessage] = []
    /// Outbox entries, oldest first, shown after the history.
    package var pending: [ShownMessage] = []
    package var olderExhausted = false
    package var loadingOlder = false
    /// The cache had nothing older and the server could not be asked: asked again once connected.
    package var olderWaitsForConnection = false
    /// Messages newer than the window exist (let go while scrolling up).
    package var newerTrimmed = false
    package var loadingNewer = false
    /// Nil: following the newest message.
    package var anchor: ScrollAnchor?
    /// The selected cell (Tab), by message id.
    package var selection: String?
    /// Who is typing, until when.
    package var typing: [Int: Double] = [:]
    /// Messages that arrived below the view while it was scrolled up.
    package var newBelow = 0
    /// The newest message counted in `newBelow` while the window let newer ones go: one told
    /// twice (live, then by a catch-up or the cache) counts once.
    package var newestCountedBelow: MessageCursor?

    package init(dialog: DialogSummary) {
        self.dialog = dialog
    }

    /// At most this many messages are kept in the model.
    package static let windowLimit = 600
    /// How many messages a page loads.
    package static let pageSize = 100

    /// What the view lists: the history window, then the outbox unless newer history was let go
    /// (a view of both arrays, not a copy: it is asked for on every key).
    package var entries: ConversationEntries { ConversationEntries(messages: messages, pending: newerTrimmed ? [] : pending) }

    package func index(of id: String) -> Int? {
        if let found = pending.firstIndex(where: { $0.id == id }), !newerTrimmed { return messages.count + found }
        return messages.lastIndex { $0.id == id }
    }
}
