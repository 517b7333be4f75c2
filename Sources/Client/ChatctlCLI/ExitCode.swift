import Diagnostics

/// The documented exit codes (docs/cli-output.md, "Exit codes").
package enum ExitCode: Int32, Sendable {
    case ok = 0
    case failure = 1
    case usage = 2
    /// Some messages were not delivered (they stay in the outbox).
    case undelivered = 3
    case authentication = 4
    /// The recipient of a private message blocks the user: it was not sent, nor kept in the outbox.
    case blocked = 5
    case temporary = 75
    case interrupted = 130
}

extension ExitCode {
    /// The one mapping of a failure's class to its exit code.
    init(_ kind: Failure.Kind) {
        switch kind {
        case .invalidInput: self = .usage
        case .authentication: self = .authentication
        case .temporary: self = .temporary
        case .undelivered: self = .undelivered
        case .blocked: self = .blocked
        case .failure: self = .failure
        }
    }
}
