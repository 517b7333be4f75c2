import ClientConfiguration
import MessageCache
import QuickBloxAPI
import XMPPTransport

extension MessagingError {
    init(_ failure: FailureDescription) {
        let kind: Kind
        switch failure.kind {
        case .invalidInput: kind = .invalidInput
        case .authentication: kind = .authentication
        case .temporary: kind = .temporary
        case .failure: kind = .failure
        }
        self.init(kind, failure.message, hint: failure.hint)
    }

    init(describing error: QuickBloxError, doing what: String) {
        self.init(FailureDescription(describing: error, doing: what))
    }

    init(describing error: XMPPError) {
        self.init(FailureDescription(describing: error))
    }

    /// A cache failure as one line and a hint: what is wrong with the file and what
    /// to do; none of them loses the outbox (README "How it is tested: faults").
    package init(cache error: MessageCacheError) {
        switch error.kind {
        case .invalidSearchQuery, .invalidArgument:
            self.init(.invalidInput, error.message)
        case .damaged:
            self.init(.failure, error.message,
                      hint: "run 'chatctl cache check' to see what, and 'chatctl cache rebuild' to rebuild it from the server; the outbox is kept")
        case .full:
            self.init(.failure, error.message, hint: "free some space and run it again; what the outbox held is still there")
        case .readOnly:
            self.init(.failure, error.message,
                      hint: "make it writable or choose another with --state-dir; offline reads (--offline, search, outbox) still work")
        case .newerSchema:
            self.init(.failure, error.message, hint: "upgrade chatctl, or move the cache aside with 'chatctl cache rebuild'")
        default:
            self.init(.failure, "message cache: \(error.message)")
        }
    }
}
