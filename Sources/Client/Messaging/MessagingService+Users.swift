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
                users = found.items
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
                    users = found.items
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

extension MessagingService {
    /// The user a word names, as commands name people: `@login` or a login, an email address,
    /// an id (digits: no login starts with one), or else a full name that one user has
    /// exactly (case aside). Each found user is cached for names.
    package func user(named word: String) throws(Failure) -> CachedUser {
        if word.hasPrefix("@") { return try user(login: String(word.dropFirst()), source: .server) }
        if !word.isEmpty, word.utf8.allSatisfy({ (48...57).contains($0) }) {
            guard let id = Int(word), id > 0 else { throw Failure(.invalidInput, "'\(word)' is no user id") }
            if let user = try cached({ () throws(MessageCacheError) in try cache.user(id: id) }) { return user }
            let found: QBUser
            do { found = try api.user(id: id) } catch {
                if error.status == 404 { throw Failure(.invalidInput, "no user with id \(id)") }
                throw Failure(describing: error, doing: "find user \(id)")
            }
            return try remember(found)
        }
        if word.contains("@") { return try user(login: word, source: .server) }
        if let user = try cached({ () throws(MessageCacheError) in try cache.user(login: word) }) { return user }
        let byLogin: QBUser?
        do { byLogin = try api.user(login: word) } catch {
            guard error.status == 404 else { throw Failure(describing: error, doing: "find user \(word)") }
            byLogin = nil
        }
        if let byLogin { return try remember(byLogin) }
        var namesakes: [QBUser] = []
        if word.count >= UserSearch.shortestFullName {
            do {
                namesakes = try api.users(fullName: word, page: 1, perPage: 100).items
                    .filter { $0.fullName?.lowercased() == word.lowercased() }
            } catch {
                throw Failure(describing: error, doing: "find user \(word)")
            }
        }
        switch namesakes.count {
        case 1: return try remember(namesakes[0])
        case 0: throw Failure(.invalidInput, "no user '\(word)'", hint: "name a user by login, @login, id or full name; 'chatctl users \(word)' searches")
        default:
            var failure = Failure(.invalidInput, "\(namesakes.count) users are named '\(word)'", hint: "name one by @login or id")
            failure.details = namesakes.map { "\($0.id)  @\($0.login ?? $0.email ?? "")" }
            throw failure
        }
    }

    /// Caches a user the server answered, for names, and returns it as cached.
    func remember(_ user: QBUser) throws(Failure) -> CachedUser {
        let record = CacheRecords.user(user)
        try cached { () throws(MessageCacheError) in try cache.upsertUsers([record]) }
        return record
    }
}
