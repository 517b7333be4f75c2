/// What went wrong in the sandbox, in one line a person can act on, and what to do about it
/// when there is something to say: the one error its parts throw when they cannot start or
/// carry on (the database, a listener, the loop, TLS, the WebSocket thread, the storage
/// endpoint, a backup), so that the command line reports each the same way. What the sandbox
/// answers a client with (REST's errors, stanza and stream errors, S3's refusals) is part of
/// the protocol, not a failure, and keeps its own types.
package struct SandboxFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Asked in a way that cannot work (a backup onto a path that exists): a usage error, exit 2.
        case invalidInput
        /// Anything else (exit 1).
        case failure
    }

    package var kind: Kind
    /// What went wrong, naming what it was about (a path, an address, a port).
    package var message: String
    /// What to do about it, or what else a person should know, when there is something to say.
    package var hint: String?

    package init(_ message: String, hint: String? = nil, kind: Kind = .failure) {
        self.message = message; self.hint = hint; self.kind = kind
    }

    /// The message, and the hint in parentheses.
    package var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
