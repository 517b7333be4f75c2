public struct UserCredentials: Sendable {
    public enum Identity: Sendable, Equatable { case login(String), email(String) }
    public var identity: Identity
    public var password: String
    public init(identity: Identity, password: String) { self.identity = identity; self.password = password }
}
