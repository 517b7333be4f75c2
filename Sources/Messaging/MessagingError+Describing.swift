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

    init(cache error: MessageCacheError) {
        switch error.kind {
        case .invalidSearchQuery, .invalidArgument:
            self.init(.invalidInput, error.message)
        default:
            self.init(.failure, "message cache: \(error.message)")
        }
    }
}
