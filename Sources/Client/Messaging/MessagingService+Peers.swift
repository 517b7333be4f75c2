import Diagnostics
import MessageCache
import QuickBloxAPI

/// The people the user shares a dialog with: those whose presence the server tells
/// (docs/protocol.md §7, "Presence and last activity"), for `users --online`.
extension MessagingService {
    /// Everyone in the user's dialogs as the server lists them now, the user aside.
    package func dialogPeers() throws(Failure) -> [Int] {
        let all = try dialogs(type: nil, limit: nil, source: .server, withRawJSON: false)
        return Set(all.flatMap(\.occupantIDs)).subtracting([me]).sorted()
    }

    /// The users with these ids as the server has them, in the order given (cached for names).
    package func users(ids: [Int]) throws(Failure) -> [FoundUser] {
        var found: [Int: QBUser] = [:]
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + 100, ids.count)])
            start += 100
            do {
                for user in try api.users(ids: chunk, page: 1, perPage: 100).items { found[user.id] = user }
            } catch {
                throw Failure(describing: error, doing: "read users")
            }
        }
        let users = ids.compactMap { found[$0] }
        let records = users.map(CacheRecords.user)
        try cached { () throws(MessageCacheError) in try cache.upsertUsers(records) }
        return zip(users, records).map { user, record in
            FoundUser(id: user.id, login: user.login, fullName: user.fullName, email: user.email, rawJSON: record.rawJSON,
                      blobID: user.blobID)
        }
    }
}
