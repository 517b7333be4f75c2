import Diagnostics
import MessageCache
import ChatIdentifiers

/// What the command line and the chat view read of the cache, asked here so that neither
/// holds the cache itself: a lookup the cache cannot answer (no such row, a file it cannot
/// read) is nil where a caller only shows less, and a `Failure` where it must say why.
extension MessagingService {
    /// The cached dialog with this id; nil when the cache has none.
    package func cachedDialog(id: DialogID) -> CachedDialog? { try? cache.dialog(id: id) }

    /// The cached dialog with this id and the names of its occupants, what a title is made
    /// of (`DialogTitle`); nil when the cache has no such dialog.
    package func namedDialog(id: DialogID) -> NamedDialog? {
        guard let dialog = cachedDialog(id: id) else { return nil }
        return NamedDialog(dialog: dialog, names: displayNames(Set(dialog.occupantIDs)))
    }

    /// The cached user with this id; nil when the cache has none.
    package func cachedUser(id: Int) -> CachedUser? { try? cache.user(id: id) }

    /// The cached message with this id; nil when the cache has none.
    package func cachedMessage(id: String) throws(Failure) -> CachedMessage? {
        try cached { () throws(MessageCacheError) in try cache.message(id: id) }
    }

    /// Up to `limit` cached messages of the dialog just after `position`, oldest first.
    package func cachedMessages(dialogID: DialogID, after position: MessagePosition, limit: Int) throws(Failure) -> [CachedMessage] {
        try cached { () throws(MessageCacheError) in
            try cache.messages(dialogID: dialogID, afterDate: position.dateSent, id: position.id, limit: limit)
        }
    }

    /// Up to `limit` cached messages of the dialog just before `position`, oldest first.
    package func cachedMessages(dialogID: DialogID, before position: MessagePosition, limit: Int) throws(Failure) -> [CachedMessage] {
        try cached { () throws(MessageCacheError) in
            try cache.messages(dialogID: dialogID, beforeDate: position.dateSent, id: position.id, limit: limit)
        }
    }

    /// A number that moves whenever any connection committed to the cache (`ChatCache.changeCount`);
    /// nil when the cache cannot say.
    package var cacheChangeCount: Int? { try? cache.changeCount() }

    /// The display names (`displayNames`) of the senders of `messages`.
    package func senderNames(of messages: [CachedMessage]) -> [Int: String] {
        displayNames(Set(messages.map(\.senderID)))
    }

    /// Full-text search of the cached messages, best match first (`ChatCache.search`), the query
    /// read as a web search box reads it (`SearchQuery`). The cache's own error is thrown, whose
    /// message says what is wrong with the query.
    package func search(_ query: String, dialogID: DialogID?, limit: Int, style: SnippetStyle) throws(MessageCacheError) -> [SearchHit] {
        try cache.search(query, dialogID: dialogID, limit: limit, style: style, syntax: .webSearch)
    }

    /// The dialog's messages since the last sync (all of them, up to `limit`, the first
    /// time) into the cache; returns how many were fetched.
    @discardableResult
    package func syncNewHistory(dialogID: DialogID, limit: Int) throws(Failure) -> Int {
        let since = try cached { () throws(MessageCacheError) in try cache.lastSyncedDateSent(dialogID: dialogID) }
        // date_sent[gt] since-1: messages in the same second as the cursor are fetched again (stored once).
        return try syncHistory(dialogID: dialogID, limit: limit, before: nil, since: since.map { $0 - 1 })
    }
}

/// A cached dialog with the display names of its occupants.
package struct NamedDialog {
    package let dialog: CachedDialog
    package let names: [Int: String]

    package init(dialog: CachedDialog, names: [Int: String]) { self.dialog = dialog; self.names = names }
}
