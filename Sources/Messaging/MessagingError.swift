/// The one public error of Messaging: a line a person can act on, and the
/// class that decides the exit code. Never carries message bodies or tokens.
package struct MessagingError: Error, Sendable, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Bad input: unknown or ambiguous dialog, bad option value (exit 2).
        case invalidInput
        /// Not logged in, expired, refused (exit 4).
        case authentication
        /// Worth retrying: cannot connect, timeout, 5xx, 429 (exit 75).
        case temporary
        /// Some messages were not delivered and stay in the outbox (exit 3).
        case undelivered(Int)
        /// Anything else (exit 1).
        case failure
    }
    package var kind: Kind
    package var message: String
    package var hint: String?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    package var description: String { hint.map { "\(message) (\($0))" } ?? message }
}
