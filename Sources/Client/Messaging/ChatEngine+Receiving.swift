#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache
import XMPPTransport

/// What arrives live (docs/protocol.md §7): messages, filed under their dialog even when
/// they name none; carbons, our own sends from other devices; system notifications, which
/// bring new dialogs and have their rooms joined at once. Each message is cached, and
/// handed on once (`.heard`), in batches; a gap a reconnect left is filled from history
/// without duplicates (the cache knows every id seen, and the engine the last few thousand
/// it handed on, for what another process of the account cached first). Memory stays flat.
extension ChatEngine {
    /// Every event of the link, on this thread, in order.
    func route(_ event: ChatEvent) {
        switch event {
        case .message, .carbon: break
        default: storeArrivals()  // messages before this event are handed on before it
        }
        switch event {
        case .message(let incoming):
            receive(incoming)
        case .carbon(let carbon):
            receive(carbon)
        case .systemNotification(let notification):
            receive(notification)
        case .chatState(let state, let from, let dialogID):
            // From a user JID, or a room occupant whose nickname is the user id. Our own (a room's echo) is not told.
            let user = from.userID ?? (from.roomDialogID != nil ? from.resource.flatMap { Int($0) } : nil)
            if let user, user != link.me { emit(.typing(userID: user, dialogID: dialogID ?? from.roomDialogID, state)) }
        case .connectionLost(let error, _):
            feed(.linkLost(Failure(describing: error)))
        case .delivered, .marker:
            outbox.handle(event)
        case .messageError:
            outbox.handle(event)
            for (id, dialogID, failure) in outbox.takeRefusals() { emit(.refused(dialogID: dialogID, clientMessageID: id, failure)) }
        case .presence(let presence):
            heard(presence)
        case .lastActivity(let answer):
            heard(answer)
        case .correction(let correction, let from, let dialogID):
            let sender = from.userID ?? (from.roomDialogID != nil ? from.resource.flatMap { Int($0) } : nil)
            if sender != link.me { receive(correction, from: sender, dialogID: dialogID ?? from.roomDialogID) }
        case .roster(let update):
            heard(update)
        case .subscription(let presence):
            heard(presence)
        case .privacy(let answer):
            heard(answer)
        }
    }

    /// The dialogs heard, as the server lists them now.
    func refreshDialogs() throws(Failure) {
        try service.syncDialogs()
        let all = try service.dialogs(type: nil, limit: nil, source: .cacheOnly)
        for dialog in all where isHeard(dialog.id) { feed(.dialogKnown(dialog)) }
    }

    private func isHeard(_ dialogID: DialogID) -> Bool {
        switch settings.dialogs {
        case .all: return true
        case .only(let ids): return ids.contains(dialogID)
        case .none: return false
        }
    }

    private var hearsEverything: Bool { settings.dialogs == .all }

    // MARK: what arrives

    /// A chat or group message as it arrived.
    func receive(_ incoming: IncomingChatMessage) {
        guard !core.isStopped, settings.dialogs != .none else { return }
        let mine = incoming.senderUserID == link.me
        // A 1:1 message from ourselves is a note to self; only rooms echo what we sent elsewhere.
        if mine && incoming.kind == .chat { return }
        file(incoming, peer: incoming.kind == .chat ? incoming.senderUserID : nil, outgoing: mine)
    }

    /// A copy the server forwarded: what another of our devices sent or was sent.
    func receive(_ carbon: IncomingCarbon) {
        switch carbon.direction {
        case .received:
            receive(carbon.message)
        case .sent:
            guard !core.isStopped, settings.dialogs != .none, let peer = carbon.peer?.userID, peer != link.me else { return }
            file(carbon.message, peer: peer, outgoing: true)
        }
    }

    /// A dialog was created with us in it, or changed: taken from the server (the headline's
    /// fields are another user's word) and cached; a new group's room is joined at once,
    /// before the notice, so from the notice on its messages are heard.
    func receive(_ notification: IncomingSystemNotification) {
        guard !core.isStopped, settings.dialogs != .none else { return }
        let heardAt = Int(Date().timeIntervalSince1970)
        let known = dialogs[notification.dialogID] != nil || (try? service.cache.dialog(id: notification.dialogID)) != nil
        let dialog: CachedDialog
        do {
            // Not listed for us, or without us: a forgery, or we were removed again.
            guard let listed = try service.fetchDialog(id: notification.dialogID) else { return }
            dialog = listed
        } catch {
            emit(.notice(.failed(.lookUpNotifiedDialog(notification.dialogID), error)))
            return
        }
        let notice = DialogNotice(change: known ? .updated : .added, dialog: dialog, actorID: notification.senderUserID)
        guard isHeard(dialog.id), dialogs[dialog.id] == nil else {
            if dialogs[dialog.id] != nil { feed(.dialogKnown(dialog)) }  // heard already: changed
            return tell(notice)
        }
        // What was said before we heard of the dialog is history; a gap fill after a reconnect starts here.
        feed(.dialogKnown(dialog, since: heardAt))
        guard dialog.type != .private else { return tell(notice) }
        do { try link.joinRooms(of: [dialog]) } catch {
            tell(notice)
            emit(.notice(.failed(.joinRoom(dialog.label), error)))
            return
        }
        tell(notice)
        // A message posted while we were joining went to the room without us: fetch it once.
        // (Two seconds back: date_sent counts whole seconds on the server's clock.)
        guard let missed = try? service.newMessages(dialogID: dialog.id, since: heardAt - 2, alsoCachedSince: startedAt) else { return }
        for message in missed where message.senderID != link.me && !core.wasHanded(message.id) {
            guard !handingEnded else { break }
            hand(message)
        }
        tellHeard()
    }

    /// A dialog notice, with the names of the people it names, and the dialogs as they are now.
    private func tell(_ notice: DialogNotice) {
        let people = Set(notice.dialog.occupantIDs + [notice.actorID].compactMap { $0 })
        let learnt = names.learn(people, service: service, online: connected)
        if !learnt.isEmpty { emit(.names(learnt)) }
        emit(.dialogNotice(notice))
        reportDialogs()
    }

    // MARK: filing

    private func file(_ incoming: IncomingChatMessage, peer: Int?, outgoing: Bool) {
        guard let dialog = dialog(for: incoming, peer: peer) else { return }
        var incoming = incoming
        if incoming.id.isEmpty {
            // Neither the sender nor the server gave it an id: one of ours, so it is still shown and cached.
            incoming.id = localIDs.next(unixTime: UInt32(clamping: incoming.dateSent)).rawValue
        }
        let recipient = dialog.type == .private ? (outgoing ? peer ?? 0 : link.me) : 0
        // Cached and handed on with the rest of its batch (`storeArrivals`).
        arriving.append((CachedMessage(incoming, dialogID: dialog.id, recipient: recipient), outgoing))
    }

    /// The dialog a message belongs to: the one it names if that is ours (for a 1:1 message,
    /// a private dialog with the peer), else for a 1:1 message the private dialog with the
    /// peer, found or (hearing everything) created over REST.
    private func dialog(for incoming: IncomingChatMessage, peer: Int?) -> CachedDialog? {
        if let id = incoming.dialogID {
            // A dialog created since we started (e.g. by this very message): learn it when hearing everything.
            if dialogs[id] == nil && hearsEverything { try? refreshDialogs() }
            if let dialog = dialogs[id], incoming.kind == .groupchat || Self.isPrivate(dialog, with: peer) { return dialog }
            // A 1:1 message naming a dialog that is not its own is filed like one naming none.
        }
        guard incoming.kind == .chat else { return nil }
        guard let peer, peer != link.me else {
            emit(.notice(.ignoredMessage(from: "\(incoming.from)")))
            return nil
        }
        if let known = dialogs.values.first(where: { Self.isPrivate($0, with: peer) }) { return known }
        // Every dialog heard is in `dialogs` already.
        guard hearsEverything else { return nil }
        do {
            guard let dialog = try service.privateDialog(withUserID: peer, create: true) else { return nil }
            feed(.dialogKnown(dialog))
            return dialog
        } catch {
            emit(.notice(.failed(.fileMessage(fromUser: peer), error)))
            return nil
        }
    }

    private static func isPrivate(_ dialog: CachedDialog, with peer: Int?) -> Bool {
        guard let peer else { return false }
        return dialog.type == .private && dialog.occupantIDs.contains(peer)
    }

    // MARK: caching and handing on

    /// Whether what `arriving` holds should be cached and handed on now (`lastStored`).
    var arrivalsAreDue: Bool {
        !arriving.isEmpty && (arriving.count >= Self.storeBatchLimit || ContinuousClock.now - lastStored >= Self.storeInterval)
    }

    /// Caches the messages filed from one batch of events in one transaction, then hands each
    /// on once, in order: one from others when new to the cache, or cached by another process
    /// of this account (a `sync`, another `listen`) since this one began, and not handed on
    /// yet; ours from another device each time it arrives, not counted (so `--count` and
    /// `--exec` are about others' messages, and a bot never answers itself). Under a hand
    /// limit, no more of a batch is cached than can still be handed on: what is past it is
    /// neither told nor cached (nor marked received), and stays on the server for the next
    /// `listen`, `sync` or `history`. A cache that cannot be written (a full disk) does not
    /// stop messages being told.
    func storeArrivals() {
        guard !arriving.isEmpty else { return }
        var batch = arriving[...]
        arriving.removeAll(keepingCapacity: true)
        defer { lastStored = .now }
        while !batch.isEmpty && !handingEnded {
            let part = batch.prefix(countableLength(of: batch))
            guard !part.isEmpty else { break }
            cacheAndHand(part)
            batch = batch.dropFirst(part.count)
        }
        tellHeard()
    }

    /// How much of `batch`, from its start, can be handed on before the hand limit: every
    /// message from others not handed on yet may count, so the part stops before the one
    /// that would be past it (fewer may count; the rest is then taken next).
    private func countableLength(of batch: ArraySlice<(record: CachedMessage, outgoing: Bool)>) -> Int {
        guard let limit = settings.handLimit else { return batch.count }
        var room = limit - core.handedCount
        for (offset, item) in batch.enumerated() where !item.outgoing && !core.wasHanded(item.record.id) {
            if room <= 0 { return offset }
            room -= 1
        }
        return batch.count
    }

    private func cacheAndHand(_ batch: ArraySlice<(record: CachedMessage, outgoing: Bool)>) {
        var isNew: [Bool]
        do { isNew = try service.cache.upsertMessagesReportingNew(batch.map(\.record)) } catch {
            feed(.cacheFailed(Failure(cache: error)))
            isNew = Array(repeating: true, count: batch.count)
        }
        for ((record, outgoing), new) in zip(batch, isNew) {
            guard !handingEnded else { break }
            if outgoing {
                heard.append(HeardMessage(record, outgoing: true))
            } else if !core.wasHanded(record.id), new || record.dateSent >= startedAt {
                hand(record)
            }
        }
    }

    /// Passes on a message from others new to this engine, counts it, and acknowledges it:
    /// `received`, and when a person sees it, `displayed` and read over REST.
    func hand(_ message: CachedMessage) {
        heard.append(HeardMessage(message, outgoing: false))
        feed(.handed(message))
    }

    /// Tells what this batch handed on, in one event.
    func tellHeard() {
        guard !heard.isEmpty else { return }
        let batch = heard
        heard.removeAll(keepingCapacity: true)
        emitMessages(.heard(batch))
    }

    /// Messages that arrived while disconnected, from history, each once.
    func fillGaps() {
        storeArrivals()
        for dialogID in dialogs.keys.sorted() {
            guard !handingEnded else { break }
            let since = core.lastSeen[dialogID] ?? 0
            guard let missed = try? service.missedMessages(dialogID: dialogID, since: since - 1, alsoCachedSince: startedAt,
                                                           excludedSender: link.me) else { continue }
            for message in missed.messages where !core.wasHanded(message.id) {
                hand(message)
                if handingEnded { break }
            }
            // The server had nothing else up to its newest: the next gap starts there, so a
            // stream's own lines are not fetched again at every reconnect (dates are the server's).
            if !handingEnded, let newest = missed.newest { feed(.gapFilled(dialogID: dialogID, newest: newest)) }
        }
        tellHeard()
    }
}
