import ClientConfiguration
import QuickBloxAPI
import XMPPTransport

/// The one public error of AuthFlow (house style rule 6): what went wrong, in
/// one line a person can act on, and the class of failure that decides the
/// exit code. Never carries a password or a token.
package struct AuthFlowError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Bad input or configuration, authentication, temporary, or other failure.
    package typealias Kind = FailureDescription.Kind
    package var kind: Kind
    package var message: String
    /// What to do about it, when there is something to say.
    package var hint: String?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    package init(_ failure: FailureDescription) {
        self.init(failure.kind, failure.message, hint: failure.hint)
    }

    /// A config file that cannot be read or understood is bad input.
    package init(_ error: ConfigurationError) {
        self.init(.invalidInput, error.message, hint: error.hint)
    }

    /// The one description of a REST failure every command shares: the
    /// server's reason, the endpoint, a hint, and the kind for the exit code.
    package init(describing error: QuickBloxError, doing what: String) {
        self.init(FailureDescription(describing: error, doing: what))
    }

    /// The same for a chat (XMPP) failure.
    package init(describing error: XMPPError) {
        self.init(FailureDescription(describing: error))
    }

    package var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
