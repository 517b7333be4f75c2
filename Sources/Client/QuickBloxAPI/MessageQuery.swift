import ChatIdentifiers

/// What `QuickBloxClient.messages(_:)` asks for: one dialog's history, newest first.
package struct MessageQuery: Sendable, Equatable {
    package var dialogId: DialogID
    /// Page size; 100 is always accepted (the maximum is unconfirmed).
    package var limit: Int
    package var skip: Int
    /// `date_sent[lt]=…`, unix seconds: only older messages.
    package var sentBefore: Int?
    /// `date_sent[gt]=…`, unix seconds: only newer messages.
    package var sentAfter: Int?
    /// Reading history marks it read on the server unless `mark_as_read=0` is sent;
    /// false (the default) sends it.
    package var markAsRead: Bool

    package init(dialogId: DialogID, limit: Int = 100, skip: Int = 0, sentBefore: Int? = nil, sentAfter: Int? = nil,
                markAsRead: Bool = false) {
        self.dialogId = dialogId; self.limit = limit; self.skip = skip; self.sentBefore = sentBefore
        self.sentAfter = sentAfter; self.markAsRead = markAsRead
    }

    /// The query string pairs, in the order docs/protocol.md lists them.
    var queryItems: [(String, String)] {
        var items = [("chat_dialog_id", dialogId.rawValue), ("sort_desc", "date_sent"), ("limit", String(limit)),
                     ("skip", String(skip))]
        if !markAsRead { items.append(("mark_as_read", "0")) }
        if let sentBefore { items.append(("date_sent[lt]", String(sentBefore))) }
        if let sentAfter { items.append(("date_sent[gt]", String(sentAfter))) }
        return items
    }
}
