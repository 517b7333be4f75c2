/// The one public error of AuthFlow (house style rule 6): what went wrong, in
/// one line a person can act on, and the class of failure that decides the
/// exit code. Never carries a password or a token.
public struct AuthFlowError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Bad input or configuration (exit 2).
        case invalidInput
        /// Bad credentials, not logged in, session expired (exit 4).
        case authentication
        /// Worth retrying later: cannot connect, timeout, 5xx, 429 (exit 75).
        case temporary
        /// Anything else (exit 1).
        case failure
    }
    public var kind: Kind
    public var message: String
    /// What to do about it, when there is something to say.
    public var hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    public var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
