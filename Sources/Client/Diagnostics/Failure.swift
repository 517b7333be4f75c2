/// What went wrong, in one line a person can act on; what to do about it; and the
/// class of failure that decides a command's exit code (docs/cli-output.md, "Exit codes").
///
/// The one user-facing error of every client module, so every error is worded and exited alike:
/// the layers below keep their own detailed errors (`HTTPError`, `QuickBloxError`,
/// `XMPPError`, `MessageCacheError`) and each says once, in an initializer of this
/// type declared beside it, how it reads to a person. Never carries a password, a
/// token or a message body.
package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Bad input or configuration: an unknown dialog, a bad option value, a missing file (exit 2).
        case invalidInput
        /// Not logged in, expired, refused (exit 4).
        case authentication
        /// Worth retrying later: cannot connect, timeout, 5xx, 429 (exit 75).
        case temporary
        /// This many messages were not delivered and wait in the outbox (exit 3).
        case undelivered(Int)
        /// The recipient blocks the user: the message was not sent and is not kept (exit 5).
        case blocked
        /// Anything else (exit 1).
        case failure
    }

    package var kind: Kind
    package var message: String
    /// What to do about it, when there is something to say.
    package var hint: String?
    /// Lines that follow the message, one per choice a person has (the dialogs an
    /// ambiguous name matches); not part of `description`.
    package var details: [String] = []
    /// The server refused this for good (a 4xx other than 401, 408, 429): trying again
    /// cannot help, so a message refused so is never kept in the outbox.
    package var isPermanent = false

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind; self.message = message; self.hint = hint
    }

    /// The message, and the hint in parentheses.
    package var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
