// A user's changes to their own record, its removal, and the lookups by tag and external
// id (docs/protocol.md §3, "Profile"; the reference's Users operations).
import SandboxHTTP
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// `PUT /users/{id}.json`: the session's user changes `login`, `email`, `full_name`,
    /// `phone`, `website`, `custom_data`, `external_user_id`, `blob_id`, `tag_list`, and
    /// the password with `old_password`. An empty value (or JSON null) clears an optional
    /// field. 200 with the user; 403 for anyone else's record, 404 for no such user, 422
    /// with every field's problem as sign-up answers them.
    func updateUser(_ context: UserContext) throws(RESTError) -> RESTResponse {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let current = try storage({ try database.user(id: id) }) else { throw .notFound }
        guard context.session.userId == id else { throw .forbidden }
        let r = context.request
        var changes = UserChanges()
        var problems: [(String, JSONNode)] = []
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        /// nil: not sent; `.some(nil)`: sent empty (clear).
        func field(_ name: String) -> String?? {
            guard let v = r.parameter("user[\(name)]") else {
                // A JSON body's `null` is no parameter once flattened: it clears too.
                if case .null? = r.json?["user"]?[name] { return .some(nil) }
                return nil
            }
            return .some(v.isEmpty || v == "null" ? nil : v)
        }
        func number(_ name: String) -> Int?? {
            guard let text = field(name) else { return nil }
            guard let text else { return .some(nil) }
            guard let value = Int(text), value > 0 else { problem(name, "is not a number"); return nil }
            return .some(value)
        }
        if let login = field("login") {
            if let login {
                if try storage({ try database.isLoginTaken(login, exceptId: id) }) { problem("login", "has already been taken") }
                changes.login = login
            } else {
                problem("login", "can't be blank")
            }
        }
        if let email = field("email") {
            if let email, try storage({ try database.isEmailTaken(email, exceptId: id) }) { problem("email", "has already been taken") }
            if email == nil && (changes.login ?? current.login) == nil { problem("email", "can't be blank") }
            changes.email = email
        }
        changes.fullName = field("full_name")
        changes.phone = field("phone")
        changes.website = field("website")
        changes.customData = field("custom_data")
        changes.externalUserId = number("external_user_id")
        changes.blobId = number("blob_id")
        changes.tags = Self.tagList(r)
        changes.facebookId = field("facebook_id")
        changes.twitterId = field("twitter_id")
        changes.twitterDigitsId = field("twitter_digits_id")
        if let password = r.parameter("user[password]") {
            if let message = SandboxAPI.passwordProblem(password) {
                problem("password", message)
            } else if let old = r.parameter("user[old_password]"), !old.isEmpty {
                // The old password proves it is the person, not a session left open.
                switch try storage({ try database.verifyPassword(userId: id, old, from: r.peerAddress) }) {
                case .accepted: changes.password = password
                case .refused: problem("old_password", "is incorrect")
                case .throttled(let seconds): throw .tooManyAttempts(retryAfter: seconds)
                }
            } else {
                problem("old_password", "can't be blank")
            }
        }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        guard let user = try storage({ try database.updateUser(id: id, changes) }) else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }

    /// `user[tag_list]` as a form's `a,b` or JSON's array (flattened to `tag_list[]`), each tag
    /// once; nil when not sent.
    static func tagList(_ r: RESTRequest) -> [String]? { r.list("user[tag_list]") }

    /// `DELETE /users/{id}.json`: the session's user removes their account; their sessions
    /// (this one too) end. 200, empty.
    func deleteUser(_ context: UserContext) throws(RESTError) -> RESTResponse {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              try storage({ try database.user(id: id) }) != nil else { throw .notFound }
        guard context.session.userId == id else { throw .forbidden }
        try storage { try database.deleteUser(id: id) }
        notice("users: user \(id) deleted their account")
        return .empty(200)
    }

    /// `GET /users/by_tags.json?tags=a,b`: a page of the users with any of the tags.
    func usersByTags(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let (page, perPage) = userPaging(r)
        let tags = (r.parameter("tags") ?? "").split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
        guard !tags.isEmpty else { throw .field(422, "tags", "can't be blank") }
        let (total, items) = try storage { try database.users(taggedWithAny: tags, page: page, perPage: perPage) }
        return userPage(page: page, perPage: perPage, total: total, items: items)
    }

    /// `GET /users/external/{id}.json`: the user whose `external_user_id` that is.
    func userByExternalId(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        guard let externalId = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let user = try storage({ try database.user(externalId: externalId) }) else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }

    /// `DELETE /users/external/{id}.json`: as `DELETE /users/{id}.json`, found by external id.
    func deleteUserByExternalId(_ context: UserContext) throws(RESTError) -> RESTResponse {
        guard let externalId = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let user = try storage({ try database.user(externalId: externalId) }) else { throw .notFound }
        guard context.session.userId == user.id else { throw .forbidden }
        try storage { try database.deleteUser(id: user.id) }
        notice("users: user \(user.id) deleted their account (external id \(externalId))")
        return .empty(200)
    }

    /// `GET /password/reset.json?email=`: 200 with no body, whether or not someone has
    /// that email (the answer tells nobody who has an account). No mail is sent: the
    /// request is written to the log instead.
    func resetPassword(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        guard let email = context.request.parameter("email"), !email.isEmpty else { throw .field(422, "email", "can't be blank") }
        let user = try storage { try database.user(email: email) }
        notice("users: password reset asked for \(email)" + (user.map { " (user \($0.id)); no mail sent" } ?? " (no such user)"))
        return .empty(200)
    }
}
