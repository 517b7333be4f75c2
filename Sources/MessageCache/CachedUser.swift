/// A user as cached: id, login, full name and the server's JSON text.
public struct CachedUser: Hashable, Sendable {
    public var id: Int
    public var login: String
    public var fullName: String?
    /// The user object exactly as the server sent it.
    public var rawJSON: String

    public init(id: Int, login: String, fullName: String? = nil, rawJSON: String) {
        self.id = id
        self.login = login
        self.fullName = fullName
        self.rawJSON = rawJSON
    }
}
