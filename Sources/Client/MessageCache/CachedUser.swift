/// A user as cached: id, login, full name and the server's JSON text.
package struct CachedUser: Hashable, Sendable {
    package var id: Int
    package var login: String
    package var fullName: String?
    /// The user object exactly as the server sent it.
    package var rawJSON: String

    package init(id: Int, login: String, fullName: String? = nil, rawJSON: String) {
        self.id = id
        self.login = login
        self.fullName = fullName
        self.rawJSON = rawJSON
    }
}
