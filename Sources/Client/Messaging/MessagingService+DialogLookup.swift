import Diagnostics
import MessageCache
import QuickBloxAPI
import ChatIdentifiers

/// Dialogs found from what arrives live: the private dialog with a user (a message
/// that names no dialog), and one dialog by id (a system notification names it).
extension MessagingService {
    /// The private dialog with `userID`: from the cache, else after a sync, else (when
    /// `create`) created over REST (the server returns the existing one if there is one).
    package func privateDialog(withUserID userID: Int, create: Bool) throws(Failure) -> CachedDialog? {
        if let dialog = try cached({ () throws(MessageCacheError) in try cache.privateDialog(withUserID: userID) }) { return dialog }
        try syncDialogs()
        if let dialog = try cached({ () throws(MessageCacheError) in try cache.privateDialog(withUserID: userID) }) { return dialog }
        guard create else { return nil }
        return try createDialog(type: .private, name: nil, occupants: [userID])
    }

    /// Asks the server for one dialog (`_id[in]`) and caches it with its occupants'
    /// names; nil when the server does not list it for us or we are not among its
    /// occupants (not ours, or gone): nothing is cached then.
    package func fetchDialog(id: DialogID) throws(Failure) -> CachedDialog? {
        let page: QBDialogPage
        do { page = try api.dialogs(DialogQuery(limit: 1, ids: [id])) } catch {
            throw Failure(describing: error, doing: "fetch dialog \(id)")
        }
        guard let dialog = page.items.first(where: { $0.id == id }), dialog.occupantIDs.contains(me) else { return nil }
        let record = CacheRecords.dialog(dialog)
        try cached { () throws(MessageCacheError) in try cache.upsertDialogs([record]) }
        try fetchUsers(dialog.occupantIDs)
        return record
    }
}
