import ClientConfiguration
import QuickBloxAPI

/// The one public error of Transfers: a line naming the file and the reason, and
/// the class that decides the exit code. Never carries tokens or file contents.
package struct TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Bad input: a missing, unreadable or empty file, a file that exists, an unknown uid (exit 2).
        case invalidInput
        /// Not logged in, or the session could not be renewed (exit 4).
        case authentication
        /// Worth trying again: cannot connect, timeout, interrupted, 5xx (exit 75).
        case temporary
        /// Anything else: refused, the disk is full (exit 1).
        case failure
    }
    package var kind: Kind
    package var message: String
    package var hint: String?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    package var description: String { hint.map { "\(message) (\($0))" } ?? message }

    /// A REST failure in a person's words (`FailureDescription`), with its exit class.
    package init(describing error: QuickBloxError, doing what: String, hint: String? = nil) {
        let failure = FailureDescription(describing: error, doing: what)
        let kind: Kind = switch failure.kind {
        case .invalidInput: .invalidInput
        case .authentication: .authentication
        case .temporary: .temporary
        case .failure: .failure
        }
        self.init(kind, failure.message, hint: hint ?? failure.hint)
    }
}
