#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport
import ChatIdentifiers

/// The chat engine's sending half (docs/protocol.md §7): each message is queued in the
/// outbox (claimed by this process) before its stanza is written, and leaves the outbox
/// only when the server's stream-management ack covers it. The stanza id is the outbox id,
/// which the server keeps as the message's `_id`, so a later resend of an unacknowledged
/// message is recognised rather than stored twice. It never touches the connection's
/// lifecycle: the engine connects, reconnects and hands it the link's events.
final class OutboxSender {
    let link: any ChatLinking
    let service: MessagingService
    let owner: Int
    /// The engine's markers: ours out, theirs in (one exchange per link).
    let markers: MarkerExchange
    /// Written, not acknowledged yet; `order` keeps the order they were sent in.
    var inFlight: [ObjectID: (dialog: CachedDialog, text: String, sentAt: Int, attachments: [QBAttachment], order: Int)] = [:]
    private var sentCount = 0
    /// The first failure that ended sending (a lost connection not kept for a reconnect,
    /// a refused message); later messages are only queued.
    var failure: Failure?
    /// The connection is lost and the engine will make it again: what was cut off
    /// unacknowledged, or queued meanwhile, waits here in order, still claimed
    /// (OutboxSender+Stranded.swift).
    var disconnected: Failure?
    var stranded: [Stranded] = []
    /// The engine makes a lost connection again (its `ReconnectPolicy`): what is cut off
    /// then waits for it instead of going back to the outbox.
    var reconnects = false
    /// When the server last acknowledged something (or this sender began).
    var lastProgress = ContinuousClock.now
    /// Acknowledged by the server, not yet moved out of the outbox.
    private var acknowledged: [(clientMessageID: String, serverMessage: CachedMessage)] = []
    /// Moved to history since the engine last took them (`takeDelivered`).
    private var deliveredRecords: [CachedMessage] = []
    private(set) var delivered = 0
    private(set) var undelivered = 0
    /// Refused for good by the server: removed from the outbox, never retried.
    private(set) var refused = 0
    /// Messages refused for good since the engine last took them (`takeRefusals`), with why.
    private var refusals: [(clientMessageID: String, dialogID: DialogID, Failure)] = []
    /// Markers for messages not in history yet (sent, their ack not recorded): taken once they are.
    private var earlyMarkers: [ChatMarker] = []
    /// Custom parameters of the outbox entries being sent that have any (a reply's, a
    /// forward's), by client id: kept aside so the hot path of plain texts stays as it was.
    var customByID: [String: [String: String]] = [:]

    init(link: any ChatLinking, service: MessagingService, owner: Int, markers: MarkerExchange) {
        self.link = link; self.service = service; self.owner = owner; self.markers = markers
    }

    /// The messages refused for good since the last call, with why.
    func takeRefusals() -> [(clientMessageID: String, dialogID: DialogID, Failure)] {
        defer { refusals.removeAll() }
        return refusals
    }

    /// Message ids written and not acknowledged yet.
    var inFlightIDs: Set<String> { Set(inFlight.keys.map(\.rawValue)) }

    /// Our messages moved into history since the last call.
    func takeDelivered() -> [CachedMessage] {
        defer { deliveredRecords.removeAll(keepingCapacity: true) }
        return deliveredRecords
    }

    // MARK: sending

    /// Queues and sends a batch (one cache transaction for the batch: a stream of lines is
    /// not one fsync per line). After a failure messages are still queued but not sent;
    /// while disconnected they wait, claimed, for the reconnect.
    func send(_ drafts: [(text: String, attachments: [QBAttachment])], to dialog: CachedDialog) throws(Failure) {
        guard !drafts.isEmpty else { return }
        let drafts = drafts.map { (MessagingService.body($0.text, attachments: $0.attachments), $0.attachments) }
        let now = Int(Date().timeIntervalSince1970)
        let ids = drafts.map { _ in link.makeMessageID() }
        do {
            try service.cache.enqueue(zip(ids, drafts).map { ($0.rawValue, $1.0, CacheRecords.attachmentsJSON($1.1)) },
                                      dialogID: dialog.id, createdAt: now, owner: owner)
        } catch {
            throw Failure(.failure, "message cache: cannot queue messages: \(error)")
        }
        guard failure == nil else {
            for id in ids { release(id.rawValue) }
            undelivered += ids.count
            return
        }
        guard disconnected == nil else {
            for (id, (text, attachments)) in zip(ids, drafts) {
                stranded.append(Stranded(clientMessageID: id.rawValue, dialog: dialog, text: text, attachments: attachments, queuedAt: now))
            }
            return
        }
        try write(zip(ids, drafts).map { ($0.rawValue, $1.0, $1.1) }, to: dialog, sentAt: now)
    }

    /// Sends outbox entries again under their own ids (the stanza id is the message's
    /// `_id`): should the first attempt still reach the server, it keeps one copy. The
    /// entries must be claimed by this sender's owner.
    func resend(_ entries: [OutboxEntry], to dialog: CachedDialog) throws(Failure) {
        for entry in entries where !entry.customJSON.isEmpty { customByID[entry.clientMessageID] = entry.customParameters }
        try resend(entries.map { ($0.clientMessageID, $0.text, CacheRecords.attachments($0.attachmentsJSON)) }, to: dialog)
    }

    func resend(_ entries: [(clientMessageID: String, text: String, attachments: [QBAttachment])], to dialog: CachedDialog) throws(Failure) {
        guard failure == nil else {
            for entry in entries { release(entry.clientMessageID) }
            undelivered += entries.count
            return
        }
        try write(entries, to: dialog, sentAt: Int(Date().timeIntervalSince1970))
    }

    /// Writes messages already in the outbox as one batch. One that XML cannot carry (ESC
    /// and other C0 controls) goes over REST instead, which JSON can carry; the history check
    /// knows REST sends by their client id.
    private func write(_ entries: [(clientMessageID: String, text: String, attachments: [QBAttachment])], to dialog: CachedDialog,
                       sentAt now: Int) throws(Failure) {
        let (to, kind) = try link.address(of: dialog)
        var messages: [OutgoingChatMessage] = []
        for entry in entries {
            let message = ObjectID(entry.clientMessageID).map {
                OutgoingChatMessage(id: $0, kind: kind, to: to, body: entry.text, dialogID: dialog.id, saveToHistory: true,
                                    markable: true, dateSent: now, attachments: entry.attachments.map(ChatAttachment.init),
                                    customParameters: customByID[entry.clientMessageID] ?? [:])
            }
            guard let message, message.validationProblem == nil else {
                do {
                    let stored = try service.deliverViaREST(clientMessageID: entry.clientMessageID, text: entry.text,
                                                            attachments: entry.attachments, dialogID: dialog.id,
                                                            custom: customByID.removeValue(forKey: entry.clientMessageID) ?? [:])
                    noteDelivered(stored)
                } catch {
                    // A permanent refusal already left the outbox (MessagingService+Refusals.swift).
                    if error.isPermanent { refused += 1 } else { release(entry.clientMessageID); undelivered += 1 }
                    if failure == nil { failure = error }
                }
                continue
            }
            sentCount += 1
            inFlight[message.id] = (dialog, entry.text, now, entry.attachments, sentCount)
            messages.append(message)
        }
        guard !messages.isEmpty else { return }
        do { try link.send(contentsOf: messages) } catch {
            connectionLost(Failure(describing: error))
        }
    }

    // MARK: the link's events

    /// Acks, bounces and markers (the engine hands each event on).
    func handle(_ event: ChatEvent) {
        switch event {
        case .delivered(let ids):
            for id in ids {
                guard let sent = inFlight.removeValue(forKey: id) else { continue }
                lastProgress = .now
                let recipient = sent.dialog.type == .private ? (sent.dialog.occupantIDs.first { $0 != link.me } ?? 0) : 0
                acknowledged.append((id.rawValue, CachedMessage(sentID: id.rawValue, dialogID: sent.dialog.id, sender: link.me,
                                                                recipient: recipient, text: sent.text, dateSent: sent.sentAt,
                                                                attachments: sent.attachments,
                                                                custom: customByID.removeValue(forKey: id.rawValue) ?? [:])))
            }
            if acknowledged.count >= 1000 { recordAcknowledged() }
        case .marker(let marker):
            take(marker)
        case .messageError(let error):
            // The server refused one message: for good (not an occupant) it leaves the outbox;
            // a refusal that may pass (wait) keeps it there.
            if let id = error.id.flatMap(ObjectID.init), let sent = inFlight.removeValue(forKey: id) {
                customByID[id.rawValue] = nil
                var refusal = Failure(.failure, "the server refused a message: \(error.reason)")
                if let blocker = error.blocker(in: sent.dialog, me: link.me) {
                    _ = try? service.cache.discard(clientMessageID: id.rawValue)
                    refusal = service.blockedFailure(by: blocker)
                    refused += 1
                } else if error.isPermanent {
                    _ = try? service.cache.discard(clientMessageID: id.rawValue)
                    refusal.isPermanent = true
                    refusal.hint = "the message was not kept in the outbox"
                    refused += 1
                } else {
                    release(id.rawValue)
                    undelivered += 1
                }
                if refusal.isPermanent { refusals.append((id.rawValue, sent.dialog.id, refusal)) }
                if failure == nil { failure = refusal }
            }
        default:
            break
        }
    }

    /// Moves acknowledged messages from the outbox to history, many per transaction (one
    /// per ack of 50 was most of the cost of a stream). One not recorded yet when the
    /// process dies is still in the outbox, and a flush finds it in the server's history by id.
    func recordAcknowledged() {
        guard !acknowledged.isEmpty else { return recordMarkers() }
        let batch = acknowledged
        acknowledged.removeAll(keepingCapacity: true)
        do {
            try service.cache.markDelivered(batch)
            delivered += batch.count
            deliveredRecords += batch.map(\.serverMessage)
        } catch {
            for (id, _) in batch { release(id) }
            undelivered += batch.count
        }
        recordMarkers()
    }

    /// Whether acks are waiting to be recorded in numbers worth a transaction.
    var hasManyAcknowledged: Bool { acknowledged.count >= 1000 }

    /// A marker for one of ours: held while the message is on its way to history.
    private func take(_ marker: ChatMarker) {
        let id = ObjectID(marker.messageID)
        if let id, inFlight[id] != nil || acknowledged.contains(where: { $0.clientMessageID == marker.messageID }) {
            earlyMarkers.append(marker)
        } else {
            markers.take(marker)
        }
    }

    /// Takes the markers held back, now that their messages are in history.
    private func recordMarkers() {
        let held = earlyMarkers
        earlyMarkers.removeAll()
        for marker in held { take(marker) }
    }

    // MARK: giving up

    /// Everything in flight goes back to the outbox for a later flush, with `error` as the reason.
    func lose(_ error: Failure) {
        recordAcknowledged()
        if failure == nil { failure = error }
        for id in inFlight.keys { release(id.rawValue) }
        undelivered += inFlight.count
        inFlight.removeAll()
    }

    func noteDelivered(_ record: CachedMessage) {
        delivered += 1
        deliveredRecords.append(record)
    }

    func noteUndelivered(_ count: Int) { undelivered += count }

    /// Entries claimed for sending that cannot be sent now: back to the outbox with why, counted.
    func giveBack(_ entries: [OutboxEntry], _ error: Failure) {
        for entry in entries { service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error) }
        undelivered += entries.count
    }

    func release(_ clientMessageID: String) {
        service.noteFailure(clientMessageID: clientMessageID, owner: owner, error: failure ?? Failure(.temporary, "not acknowledged"))
    }
}

@available(*, unavailable)
extension OutboxSender: Sendable {}
