import Diagnostics

/// A cache failure as a person should read it: what is wrong with the file and what
/// to do; none of them loses the outbox (docs/faults.md).
extension Failure {
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
