/// A user's own record and the remaining user lookups (docs/protocol.md §3, "Profile").
extension QuickBloxClient {
    /// `PUT /users/{id}.json` `{"user":{…}}` with only the fields `update` sets; the user
    /// as the server has it now. Only the session's own user may (403 otherwise).
    package func updateUser(id: Int, _ update: QBUserUpdate) throws(QuickBloxError) -> QBUser {
        let path = "/users/\(id).json"
        let json = try send(.put, path) { .object(["user": .object(update.body)]) }
        return try parseUser(json, request: "PUT \(path)")
    }

    /// `DELETE /users/{id}.json`: removes the session's own account; its sessions end.
    package func deleteUser(id: Int) throws(QuickBloxError) {
        try send(.delete, "/users/\(id).json")
    }

    /// `GET /users/by_tags.json?tags=a,b&page=&per_page=`: users with any of the tags.
    package func users(tags: [String], page: Int = 1, perPage: Int = 10) throws(QuickBloxError) -> QBUserPage {
        let query = [("tags", tags.joined(separator: ",")), ("page", String(page)), ("per_page", String(perPage))]
        let json = try send(.get, "/users/by_tags.json", query: query)
        return try parseUserPage(json, request: "GET /users/by_tags.json", page: page, perPage: perPage)
    }

    /// `GET /users/external/{id}.json`: the user with that `external_user_id`; 404 for none.
    package func user(externalID: Int) throws(QuickBloxError) -> QBUser {
        let path = "/users/external/\(externalID).json"
        return try parseUser(try send(.get, path), request: "GET \(path)")
    }

    /// `GET /password/reset.json?email=…`: the service mails a reset link (the sandbox
    /// only logs the request). 200 whether or not someone has that email.
    package func resetPassword(email: String) throws(QuickBloxError) {
        try send(.get, "/password/reset.json", query: [("email", email)])
    }
}
