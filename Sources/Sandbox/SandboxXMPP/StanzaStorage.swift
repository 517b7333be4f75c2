// What routing, rooms and presence store and look up, and the ids of what they deliver.
import SandboxClock
import SandboxLogging
import SandboxStorage
import SandboxXML

/// Chat's storage as the router, the MUC service and presence share it: a call that fails is
/// logged and reads as nil (a full disk said once a minute), whether a stanza repeats a
/// message stored already, and the id a message is delivered under. Loop thread only.
final class StanzaStorage {
    /// nil: a server that stores nothing.
    let store: ChatStore?
    let log: SandboxLog
    let now: () -> Double
    /// Ids for messages that come without an ObjectId, and for room subjects.
    var messageIds = ObjectIdGenerator()

    init(store: ChatStore?, log: SandboxLog, now: @escaping () -> Double = SandboxTime.now) {
        self.store = store
        self.log = log
        self.now = now
    }

    /// Runs a storage call; a failure is logged and reported as nil (a full disk once a minute).
    func storage<T>(_ body: (ChatStore) throws -> T) -> T? {
        guard let store else { return nil }
        let changesBefore = store.space.isShort ? store.totalChanges : 0
        do {
            let result = try body(store)
            // Outside a turn's transaction (the disk was full), a write that worked means room again.
            if store.space.isShort && !store.isInTransaction && store.totalChanges != changesBefore {
                store.space.isShort = false
                SpaceNotice.process.returned()
            }
            return result
        } catch {
            noteStorageFailure(error)
            return nil
        }
    }

    /// Logs a failed write; a full disk is flagged (chat stops group commit) and said once a minute.
    func noteStorageFailure(_ error: any Error) {
        guard let reason = StorageSpace.shortage(in: error) else {
            return log.log(.error, "xmpp: storage failed: \(error)")
        }
        store?.space.isShort = true
        SpaceNotice.process.short("the database", reason: reason)
    }

    /// What a message that could not be stored is bounced with: resource-constraint while the
    /// disk is full (RFC 6120 §8.3.3.18, try later), internal-server-error otherwise.
    var notStoredError: StanzaError { store?.space.isShort == true ? XMPPStanzaRouter.diskFull : XMPPStanzaRouter.notStored }

    /// A storage lookup; a failure is logged and reported as nil.
    func find<T>(_ body: (ChatStore) throws -> T?) -> T? {
        guard let store else { return nil }
        do { return try body(store) } catch {
            log.log(.error, "xmpp: storage failed: \(error)")
            return nil
        }
    }

    /// Whether `stanza` repeats a message `sender` already stored: the same ObjectId, or (for a
    /// sender whose ids are not ObjectIds) the same id of its own, dialog and text. A resend after
    /// a reconnect is acknowledged but neither stored nor delivered again.
    /// Also returns what it learnt of who stored a message under the stanza's ObjectId, for
    /// `insertMessage` not to look again.
    /// `idOnInsert`: the stanza's ObjectId is not looked up here (`.foundByInsert`): the INSERT
    /// finds a resend of it when it meets the stored one.
    func isResend(_ stanza: XMPPElement, by sender: Int, in dialogId: String?, body: String,
                  idOnInsert: Bool = false) -> (Bool, idOwner: ChatStore.IdOwner) {
        let stanzaId = stanza[attribute: "id"]
        var idOwner: ChatStore.IdOwner = idOnInsert ? .foundByInsert : .unknown
        if !idOnInsert, let stanzaId, ObjectIdGenerator.isValid(stanzaId),
           let owner = storage({ try $0.senderOfMessage(id: stanzaId) }) {
            idOwner = .known(owner)
            if owner == sender { return (true, idOwner) }
        }
        // An SDK's own ObjectId is its stored id (unless another sender took it): no second lookup per message.
        guard let id = XMPPStanzaRouter.senderId(of: stanza), !(id == stanzaId && ObjectIdGenerator.isValid(id)), let dialogId,
              let earlier = find({ try $0.message(originId: id, senderId: sender) }) else { return (false, idOwner) }
        return (earlier.dialogId == dialogId && earlier.body == body, idOwner)
    }

    /// What a message is stored and delivered under: the stored id, else the stanza's own when it
    /// is an ObjectId, else a new one; every message with a body reaches its recipients with one.
    func deliveryId(stored: String?, stanza: XMPPElement) -> String {
        if let stored { return stored }
        if let id = stanza[attribute: "id"], ObjectIdGenerator.isValid(id) { return id }
        return messageIds.next(at: now())
    }
}

@available(*, unavailable) extension StanzaStorage: Sendable {}
