import AuthFlow
import MessageCache
import QuickBloxAPI
import XMPPTransport

extension MessagingError {
    init(_ error: AuthFlowError) {
        let kind: Kind
        switch error.kind {
        case .invalidInput: kind = .invalidInput
        case .authentication: kind = .authentication
        case .temporary: kind = .temporary
        case .failure: kind = .failure
        }
        self.init(kind, error.message, hint: error.hint)
    }

    init(describing error: QuickBloxError, doing what: String) {
        self.init(AuthFlowError(describing: error, doing: what))
    }

    init(describing error: XMPPError) {
        self.init(AuthFlowError(describing: error))
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
