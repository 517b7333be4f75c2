/// What a cached user is called: the names a person may type for the private dialog
/// with them. The email address is kept only in the user's JSON.
package struct UserNames: Hashable, Sendable {
    package var id: Int
    package var login: String
    package var fullName: String?
    package var email: String?

    package init(id: Int, login: String, fullName: String? = nil, email: String? = nil) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email
    }

    /// As a dialog's title shows the person: the full name, else the login.
    package var displayName: String {
        if let fullName, !fullName.isEmpty { return fullName }
        return login
    }
}
