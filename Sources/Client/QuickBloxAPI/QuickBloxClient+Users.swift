/// User lookups and searches (docs/protocol.md §3), all through `send`. Every list
/// call answers a page, `{"current_page","per_page","total_entries","items":[…]}`,
/// whose items may be `{"user":{…}}` or bare user objects.
extension QuickBloxClient {
    /// `GET /users/{id}.json`.
    package func user(id: Int) throws(QuickBloxError) -> QBUser {
        let json = try send(.get, "/users/\(id).json")
        return try parseUser(json, request: "GET /users/\(id).json")
    }

    /// `GET /users/by_login.json?login=…`; 404 when there is no such user.
    package func user(login: String) throws(QuickBloxError) -> QBUser {
        let json = try send(.get, "/users/by_login.json", query: [("login", login)])
        return try parseUser(json, request: "GET /users/by_login.json")
    }

    /// `GET /users/by_email.json?email=…`: the exact address; 404 when nobody has it.
    /// Answers `{"user":{…}}`; a page of them is read too (the first user).
    package func user(email: String) throws(QuickBloxError) -> QBUser {
        let json = try send(.get, "/users/by_email.json", query: [("email", email)])
        if json["items"] != nil {
            let page = try parseUserPage(json, request: "GET /users/by_email.json", page: 1, perPage: 1)
            guard let user = page.items.first else {
                throw QuickBloxError(kind: .http(status: 404), request: "GET \(apiEndpoint)/users/by_email.json",
                                     reasons: ["no user with that email"])
            }
            return user
        }
        return try parseUser(json, request: "GET /users/by_email.json")
    }

    /// `GET /users.json?page=&per_page=`, optionally only the given ids
    /// (`filter[]=number id in 1,2,3`).
    package func users(ids: [Int]? = nil, page: Int = 1, perPage: Int = 10) throws(QuickBloxError) -> QBUserPage {
        var query = [("page", String(page)), ("per_page", String(perPage))]
        if let ids {
            query.append(("filter[]", "number id in " + ids.map(String.init).joined(separator: ",")))
        }
        let json = try send(.get, "/users.json", query: query)
        return try parseUserPage(json, request: "GET /users.json", page: page, perPage: perPage)
    }

    /// `GET /users/by_full_name.json?full_name=…&page=&per_page=`: users whose full name
    /// matches (the hosted service wants at least 3 characters).
    package func users(fullName: String, page: Int = 1, perPage: Int = 10) throws(QuickBloxError) -> QBUserPage {
        let query = [("full_name", fullName), ("page", String(page)), ("per_page", String(perPage))]
        let json = try send(.get, "/users/by_full_name.json", query: query)
        return try parseUserPage(json, request: "GET /users/by_full_name.json", page: page, perPage: perPage)
    }

    /// A page of users, each bare or as `{"user":{…}}`.
    func parseUserPage(_ json: JSONValue, request: String, page: Int, perPage: Int) throws(QuickBloxError) -> QBUserPage {
        try parseNumberedPage(json, request: request, page: page, perPage: perPage, unreadable: "an item without a user id") {
            QBUser(json: $0["user"] ?? $0)
        }
    }
}
