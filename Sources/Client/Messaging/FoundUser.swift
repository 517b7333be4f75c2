/// A user `chatctl users` found: what a table shows, and the user object as the
/// server sent it (for `--json`).
package struct FoundUser: Sendable, Equatable {
    package var id: Int
    package var login: String?
    package var fullName: String?
    package var email: String?
    package var rawJSON: String
    /// The blob of their avatar; nil for none.
    package var blobID: Int?

    package init(id: Int, login: String?, fullName: String?, email: String?, rawJSON: String, blobID: Int? = nil) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email; self.rawJSON = rawJSON
        self.blobID = blobID
    }
}
