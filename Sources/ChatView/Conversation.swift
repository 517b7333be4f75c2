/// The open dialog: a window of its history (at most `windowLimit` messages; more
/// are read back from the cache as the user scrolls), what waits in the outbox,
/// where the view is scrolled to, the selected cell, and who is typing.
public struct Conversation: Hashable, Sendable {
    public var dialog: DialogSummary
    /// The first messages have come (`conversationLoaded`); before that nothing is paged.
    public var loaded = false
    /// Oldest first, by date then id.
    public var messages: [ShownMessage] = []
    /// Outbox entries, oldest first, shown after the history.
    public var pending: [ShownMessage] = []
    public var olderExhausted = false
    public var loadingOlder = false
    /// Messages newer than the window exist (let go while scrolling up).
    public var newerTrimmed = false
    public var loadingNewer = false
    /// Nil: following the newest message.
    public var anchor: ScrollAnchor?
    /// The selected cell (Tab), by message id.
    public var selection: String?
    /// Who is typing, until when.
    public var typing: [Int: Double] = [:]
    /// Messages that arrived below the view while it was scrolled up.
    public var newBelow = 0

    public init(dialog: DialogSummary) {
        self.dialog = dialog
    }

    /// At most this many messages are kept in the model.
    public static let windowLimit = 600
    /// How many messages a page loads.
    public static let pageSize = 100

    /// What the view lists: the history window, then the outbox unless newer history was let go.
    public var entries: [ShownMessage] { newerTrimmed ? messages : messages + pending }

    public func index(of id: String) -> Int? {
        if let found = pending.firstIndex(where: { $0.id == id }), !newerTrimmed { return messages.count + found }
        return messages.lastIndex { $0.id == id }
    }
}
