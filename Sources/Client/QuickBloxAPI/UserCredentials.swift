package struct UserCredentials: Sendable {
    package enum Identity: Sendable, Equatable { case login(String), email(String) }
    package var identity: Identity
    package var password: String
    package init(identity: Identity, password: String) { self.identity = identity; self.password = password }
}
