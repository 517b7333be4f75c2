import Diagnostics
import MessageCache
import QuickBloxAPI

extension MessagingService {
    /// One page of users matching `search` (docs/protocol.md §3), cached for names:
    /// everyone (`GET /users.json`), a login (`by_login`), an email (`by_email`), or text,
    /// which is tried as a login (first, on page 1) and searched in full names
    /// (`by_full_name`, when it is long enough). A login or email nobody has is an
    /// empty page, not an error.
    package func findUsers(_ search: UserSearch, page: Int, perPage: Int) throws(Failure) -> UserSearchResult {
        var users: [QBUser] = []
        var total = 0
        do {
            switch search {
            case .everyone:
                let found = try api.users(page: page, perPage: perPage)
                users = found.users
                total = found.totalEntries
            case .login(let login):
                if page == 1, let user = try Self.unlessNotFound({ () throws(QuickBloxError) in try api.user(login: login) }) { users = [user] }
                total = users.count
            case .email(let email):
                if page == 1, let user = try Self.unlessNotFound({ () throws(QuickBloxError) in try api.user(email: email) }) { users = [user] }
                total = users.count
            case .text(let text):
                let byLogin = text.contains(" ") ? nil : try Self.unlessNotFound({ () throws(QuickBloxError) in try api.user(login: text) })
                if text.count >= UserSearch.shortestFullName {
                    let found = try api.users(fullName: text, page: page, perPage: perPage)
                    users = found.users
                    total = found.totalEntries
                }
                if let byLogin, !users.contains(where: { $0.id == byLogin.id }) {
                    total += 1
                    // The login match heads page 1; later pages are the full-name pages as they are.
                    if page == 1 { users.insert(byLogin, at: 0) }
                }
            }
        } catch {
            throw Failure(describing: error, doing: "find users")
        }
        let records = users.map(CacheRecords.user)
        try cached { () throws(MessageCacheError) in try cache.upsertUsers(records) }
        return UserSearchResult(users: zip(users, records).map { user, record in
            FoundUser(id: user.id, login: user.login, fullName: user.fullName, email: user.email, rawJSON: record.rawJSON,
                      blobID: user.blobID)
        }, page: page, perPage: perPage, totalEntries: max(total, users.count))
    }

    /// The value, or nil when the server answered 404.
    private static func unlessNotFound<T>(_ body: () throws(QuickBloxError) -> T) throws(QuickBloxError) -> T? {
        do { return try body() } catch where error.status == 404 { return nil }
    }
}
