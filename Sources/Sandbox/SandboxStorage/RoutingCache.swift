/// What the chat router keeps between messages instead of asking SQLite for each one: users
/// known to exist (users are never deleted), dialogs with their occupants (reading a dialog
/// and its occupants for every message was a tenth of its cost), the private dialog of a
/// pair. `ChatStore` fills it and drops a dialog whenever it changes the dialog; one per
/// database, so every store on the database sees the same. Loop thread only.
final class RoutingCache {
    /// A pair of users, the smaller id first.
    struct Pair: Hashable {
        let low: Int, high: Int
        init(_ a: Int, _ b: Int) { low = min(a, b); high = max(a, b) }
    }

    /// At most this many dialogs and pairs are kept (then all are forgotten and read again).
    static let limit = 10_000

    var knownUsers: Set<Int> = []
    var dialogs: [String: DialogRecord] = [:]
    private(set) var pairs: [Pair: String] = [:]
    /// Messages stored lately, by stored id: a chat marker for one of them (nearly every marker
    /// names a message stored a moment before) then needs no read at all. What it keeps never
    /// changes while the message exists; a deleted message or dialog is forgotten here.
    private(set) var recentMessages: [String: MessageOrigin] = [:]

    func keep(_ dialog: DialogRecord) {
        if dialogs.count >= Self.limit { dialogs.removeAll() }
        dialogs[dialog.id] = dialog
    }

    func keepPair(_ a: Int, _ b: Int, dialogId: String) {
        if pairs.count >= Self.limit { pairs.removeAll() }
        pairs[Pair(a, b)] = dialogId
    }

    func keepRecent(_ message: MessageOrigin) {
        if recentMessages.count >= Self.limit { recentMessages.removeAll(keepingCapacity: true) }
        recentMessages[message.id] = message
    }

    func forgetMessage(id: String) { recentMessages[id] = nil }

    func forgetRecentMessages() { recentMessages.removeAll() }

    func forgetAll() {
        knownUsers.removeAll()
        dialogs.removeAll()
        pairs.removeAll()
        recentMessages.removeAll()
    }
}

@available(*, unavailable) extension RoutingCache: Sendable {}
