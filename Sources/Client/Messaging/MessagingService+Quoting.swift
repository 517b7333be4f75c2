import Diagnostics
import MessageCache
import QuickBloxAPI

/// `send --reply-to` and `forward`: the original looked up in the cache, else
/// read from the server, then quoted by the one encoder the chat view uses (`quoting`).
extension MessagingService {
    /// The custom parameters quoting message `id`. Not in the cache: read from `dialog` over
    /// REST and cached. A reply quotes a message of its own dialog (`replyingIn`).
    package func quoting(_ id: String, as action: QBQuotedMessages.Action, lookingIn dialog: CachedDialog?,
                         replyingIn target: CachedDialog? = nil) throws(Failure) -> [String: String] {
        var cachedMessage = try cached { () throws(MessageCacheError) in try cache.message(id: id) }
        if cachedMessage == nil {
            guard let dialog else {
                throw Failure(.invalidInput, "message \(id) is not in the cache, so its dialog is unknown", hint: "give it with --from DIALOG")
            }
            let message: QBMessage?
            do { message = try api.message(id: id, dialogId: dialog.id) } catch {
                throw Failure(describing: error, doing: "read message \(id)")
            }
            guard let message else { throw Failure(.invalidInput, "no message \(id) in \(Self.label(dialog))") }
            let record = CacheRecords.message(message)
            _ = try cached { () throws(MessageCacheError) in try cache.upsertMessages([record]) }
            try fetchUsers([message.senderId])
            cachedMessage = record
        }
        if let target, let cachedMessage, cachedMessage.dialogID != target.id {
            throw Failure(.invalidInput, "message \(id) is in another dialog; a reply quotes one of its own dialog",
                          hint: "forward it instead: chatctl forward \(id) DIALOG")
        }
        guard let custom = quoting(id, as: action) else { throw Failure(.failure, "message \(id) could not be read from the cache") }
        return custom
    }
}
