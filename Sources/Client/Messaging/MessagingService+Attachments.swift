import Diagnostics
import MessageCache
import QuickBloxAPI

/// A message's files, for `download MESSAGE_ID`.
extension MessagingService {
    /// The attachments of message `id`: from the cache, else from the dialog `dialog` names
    /// over REST; nil when there is no such message to look at (the id may be a file's uid).
    package func attachments(ofMessage id: String, in dialog: DialogReference?) throws(Failure) -> [QBAttachment]? {
        if let cached = try cached({ () throws(MessageCacheError) in try cache.message(id: id) }) { return cached.attachments }
        guard let dialog else { return nil }
        let resolved = try resolve(dialog, source: .server, createPrivate: false)
        let message: QBMessage?
        do { message = try api.message(id: id, dialogId: resolved.id) } catch {
            throw Failure(describing: error, doing: "read message \(id)")
        }
        guard let message else { throw Failure(.invalidInput, "no message \(id) in \(Self.label(resolved))") }
        return message.attachments
    }
}
