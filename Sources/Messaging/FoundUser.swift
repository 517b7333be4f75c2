/// A user `chatctl users` found: what a table shows, and the user object as the
/// server sent it (for `--json`).
public struct FoundUser: Sendable, Equatable {
    public var id: Int
    public var login: String?
    public var fullName: String?
    public var email: String?
    public var rawJSON: String

    public init(id: Int, login: String?, fullName: String?, email: String?, rawJSON: String) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email; self.rawJSON = rawJSON
    }
}
