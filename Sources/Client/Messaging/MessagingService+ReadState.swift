import Diagnostics
import MessageCache
import QuickBloxAPI
import ChatIdentifiers

/// Read state over REST (docs/protocol.md §6): marking messages read, finding the
/// unread ones, and the unread counts of dialogs. Nothing here marks anything
/// read unless a command was asked to.
extension MessagingService {
    /// Marks read, for this user, those of `messages` that came from others and
    /// that their own `readIDs` do not count read yet: `PUT /chat/Message/{ids}.json`
    /// with `read=1`, 100 ids a request. The cache then counts the user among
    /// their readers. Messages the server no longer has (404) are skipped.
    /// Returns those marked, in the order given.
    @discardableResult
    package func markRead(_ messages: [CachedMessage], dialogID: DialogID) throws(Failure) -> [CachedMessage] {
        let unread = messages.filter { $0.dialogID == dialogID && $0.senderID != me && !$0.readIDs.contains(me) }
        var marked: [CachedMessage] = []
        var start = 0
        while start < unread.count {
            let chunk = Array(unread[start..<min(start + 100, unread.count)])
            start += chunk.count
            do { try api.markRead(messageIds: chunk.map(\.id), dialogId: dialogID) } catch {
                if error.status == 404 { continue }
                if error.status == 403 { throw Failure(.invalidInput, "you are not an occupant of dialog \(dialogID)") }
                throw Failure(describing: error, doing: "mark messages read")
            }
            _ = try cached { () throws(MessageCacheError) in
                try cache.recordReceipts(chunk.map { MessageReceipt(messageID: $0.id, userID: me, kind: .read) })
            }
            marked += chunk
        }
        return marked
    }

    /// The dialog's messages from others that this user has not read, newest
    /// first, as the server says: its unread count for the dialog (`count`),
    /// then history pages (never marking them read) until that many are found,
    /// at most `scanLimit` messages back. Every page read is cached.
    package func unreadMessages(dialogID: DialogID, scanLimit: Int = 10_000) throws(Failure) -> (count: Int, messages: [CachedMessage]) {
        let counts: QBUnreadCounts
        do { counts = try api.unreadCounts(dialogIds: [dialogID]) } catch {
            if error.status == 403 { throw Failure(.invalidInput, "you are not an occupant of dialog \(dialogID)") }
            throw Failure(describing: error, doing: "count unread messages")
        }
        let expected = max(0, counts.byDialog[dialogID] ?? counts.total)
        var found: [CachedMessage] = []
        var skip = 0
        while found.count < expected && skip < scanLimit {
            let page: QBMessagePage
            do { page = try api.messages(MessageQuery(dialogId: dialogID, limit: 100, skip: skip)) } catch {
                if error.status == 403 { throw Failure(.invalidInput, "you are not an occupant of dialog \(dialogID)") }
                if error.status == 404 { throw Failure(.invalidInput, "no dialog with id \(dialogID)") }
                throw Failure(describing: error, doing: "fetch history")
            }
            // Judged by the server's lists, not the cache's: the server is what is being corrected.
            let records = page.items.map(CacheRecords.message)
            _ = try cached { () throws(MessageCacheError) in try cache.upsertMessages(records) }
            found += records.filter { $0.dialogID == dialogID && $0.senderID != me && !$0.readIDs.contains(me) }
            skip += page.items.count
            if page.items.count < 100 { break }
        }
        return (expected, Array(found.prefix(expected)))
    }

    /// Sets the cached unread count of one dialog (after marking it read).
    package func noteUnreadCount(_ count: Int, dialogID: DialogID) throws(Failure) {
        _ = try cached { () throws(MessageCacheError) in try cache.setUnreadCounts([dialogID: count], others: nil) }
    }

    /// Unread counts from `GET /chat/Message/unread.json` into the cached dialogs
    /// (the dialog list's `unread_messages_count` may lag behind). A dialog the
    /// answer leaves out counts 0 when the listed counts add up to its `total`,
    /// and keeps its count otherwise. Returns the total.
    @discardableResult
    package func refreshUnreadCounts() throws(Failure) -> Int {
        let counts: QBUnreadCounts
        do { counts = try api.unreadCounts() } catch {
            throw Failure(describing: error, doing: "count unread messages")
        }
        let listed = counts.byDialog.values.reduce(0, +)
        _ = try cached { () throws(MessageCacheError) in
            try cache.setUnreadCounts(counts.byDialog, others: listed >= counts.total ? 0 : nil)
        }
        return counts.total
    }
}
