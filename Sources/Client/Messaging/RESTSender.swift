#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache

/// One message at a time over REST, each through the outbox (`send` without chat): queued,
/// then delivered, and told (`delivered`). After the first failure it stops trying (every
/// further message would wait for the same timeout) but keeps queueing, so nothing read
/// is lost.
package struct RESTSender {
    package let service: MessagingService
    package let dialogID: DialogID
    let owner = Int(getpid())
    package private(set) var delivered = 0
    package private(set) var undelivered = 0
    private var firstError: Failure?
    /// Told each message the server stored.
    private let told: (CachedMessage) -> Void

    package init(service: MessagingService, dialogID: DialogID, told: @escaping (CachedMessage) -> Void = { _ in }) {
        self.service = service; self.dialogID = dialogID; self.told = told
    }

    /// Queues `text` and delivers it, unless an earlier one failed. Throws only what ends
    /// the command: input the server refuses (for good: the message leaves the outbox),
    /// and a session that is gone (exit 4; this message waits in the outbox).
    /// `custom`: a reply's or a forward's parameters (`MessagingService.quoting`).
    package mutating func send(_ text: String, custom: [String: String] = [:]) throws(Failure) {
        let id = try service.enqueue(text, to: dialogID, owner: owner, custom: custom)
        if let error = firstError {
            service.noteFailure(clientMessageID: id, owner: owner, error: error)
            undelivered += 1
            return
        }
        do {
            let message = try service.deliverViaREST(clientMessageID: id, text: text, dialogID: dialogID, custom: custom)
            delivered += 1
            told(message)
        } catch {
            if error.isPermanent { throw error }
            if case .invalidInput = error.kind { throw error }
            service.noteFailure(clientMessageID: id, owner: owner, error: error)
            if case .authentication = error.kind {
                // No later message can go either: say why; this one waits in the outbox.
                throw Failure(.authentication, "\(error.message); the message waits in the outbox", hint: error.hint)
            }
            firstError = error
            undelivered += 1
        }
    }

    /// What is still in the outbox, as the command's failure (exit 3); nil when all went.
    package func finish() -> Failure? {
        guard undelivered > 0, let error = firstError else { return nil }
        return Failure.undelivered(undelivered, delivered: delivered, reason: error.message)
    }
}

extension Failure {
    /// Exit 3: how many are waiting in the outbox, why, and what to do.
    package static func undelivered(_ count: Int, delivered: Int, reason: String) -> Failure {
        let noun = count == 1 ? "message was" : "messages were"
        return Failure(.undelivered(count), "\(count) \(noun) not delivered (\(reason)); \(delivered) delivered",
                       hint: "they are in the outbox: run 'chatctl outbox flush' later")
    }
}
