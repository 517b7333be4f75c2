import Diagnostics
import MessageCache
import ChatIdentifiers

/// What can never be sent leaves the outbox: a blank entry, and a message the
/// server refused for good (a 4xx other than 401, 408, 429). Only what may pass later
/// (no network, 408, 429, 5xx) waits there for `outbox flush`.
extension MessagingService {
    /// Removes a refused message from the outbox and says why, with the server's reason;
    /// `status` (when known) names the likely cause.
    func refused(clientMessageID: String, dialogID: DialogID, _ failure: Failure, status: Int?) -> Failure {
        _ = try? cache.discard(clientMessageID: clientMessageID)
        var refusal = failure
        refusal.isPermanent = true
        switch status {
        case 403?:
            refusal.kind = .invalidInput
            refusal.hint = "you are not an occupant of dialog \(dialogID); the message was not kept in the outbox"
        case 404?:
            refusal.kind = .invalidInput
            refusal.hint = "dialog \(dialogID) is not on the server; the message was not kept in the outbox"
        default:
            refusal.hint = "the message was not kept in the outbox"
        }
        return refusal
    }

    /// Splits claimed entries into those to send and the blank ones, which leave the
    /// outbox here (an old chatctl queued them), each with a line saying so.
    func dropBlank(_ entries: [OutboxEntry]) throws(Failure) -> (kept: [OutboxEntry], dropped: [Failure]) {
        var kept: [OutboxEntry] = []
        var dropped: [Failure] = []
        for entry in entries {
            guard BlankMessage.isBlank(entry) else { kept.append(entry); continue }
            _ = try cached { () throws(MessageCacheError) in try cache.discard(clientMessageID: entry.clientMessageID) }
            dropped.append(Failure(.invalidInput, "dropped blank message \(entry.clientMessageID) from the outbox: there is nothing to send"))
        }
        return (kept, dropped)
    }
}
