/// The application credentials a sandbox serves besides its id: published defaults on
/// loopback, made at random elsewhere unless given (docs/protocol.md §1).
package enum SandboxCredential: String, Sendable, CaseIterable {
    /// The raw value is the option's spelling without dashes and its name in the database.
    case authKey = "auth-key"
    case authSecret = "auth-secret"
    case accountKey = "account-key"

    /// What every sandbox on loopback serves, and every test and demo expects.
    var publishedDefault: String {
        switch self {
        case .authKey: return "sandbox-auth-key"
        case .authSecret: return "sandbox-auth-secret"
        case .accountKey: return "sandbox-account-key"
        }
    }
}
