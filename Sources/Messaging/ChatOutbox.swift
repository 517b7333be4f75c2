#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport

/// Sends messages over chat through the outbox: each is queued (claimed by
/// this process) before its stanza is written, and leaves the outbox only when
/// the server's stream-management ack covers it. The stanza id is the outbox
/// id, which the server keeps as the message's `_id`, so a later resend of an
/// unacknowledged message is recognised rather than stored twice.
package final class ChatOutbox {
    package let link: ChatLink
    package let service: MessagingService
    private let owner: Int
    /// Written, not acknowledged yet; `order` keeps the order they were sent in.
    var inFlight: [ObjectID: (dialog: CachedDialog, text: String, sentAt: Int, attachments: [QBAttachment], order: Int)] = [:]
    private var sentCount = 0
    var failure: Failure?
    /// With `reconnects`: the connection is lost and not re-made yet (ChatOutbox+Reconnecting.swift).
    var disconnected: Failure?
    /// With `reconnects`: cut off unacknowledged, or queued while disconnected, in order;
    /// still claimed by this outbox, resent after a reconnect.
    var stranded: [Stranded] = []
    /// When the server last acknowledged something (or this outbox began).
    var lastProgress = ContinuousClock.now
    /// Re-make a lost connection and resend (`send --lines`); otherwise a loss leaves
    /// the rest in the outbox for `outbox flush`.
    package var reconnects = false
    /// Told about reconnects, for stderr.
    package var onNotice: (String) -> Void = { _ in }
    var backoff = ReconnectBackoff(base: 0.5, cap: 4, stableAfter: 30)
    /// Acknowledged by the server, not yet moved out of the outbox.
    private var acknowledged: [(clientMessageID: String, serverMessage: CachedMessage)] = []
    package internal(set) var delivered = 0
    package internal(set) var undelivered = 0
    /// Called with each message as the server acknowledges it.
    package var onDelivered: ((CachedMessage) -> Void)?
    /// Markers from the recipients of what this outbox sends (docs/protocol.md §7).
    package private(set) lazy var markers = MarkerExchange(link: link, cache: service.cache)
    /// Markers for messages not in history yet (sent, their ack not recorded): taken once they are.
    private var earlyMarkers: [ChatMarker] = []

    /// Whether this outbox is the link's event handler (else its owner hands it events).
    private let routesEvents: Bool

    /// The link may outlive this object (its disconnect delivers last events).
    deinit { if routesEvents { link.connection.onEvent = nil } }

    /// `routesEvents` false: the link's events go elsewhere (a `Listener`), which
    /// hands this outbox each of them through `handle(_:)`.
    package init(link: ChatLink, service: MessagingService, owner: Int, routesEvents: Bool = true) {
        self.link = link; self.service = service; self.owner = owner; self.routesEvents = routesEvents
        if routesEvents { link.connection.onEvent = { [weak self] event in self?.handle(event) } }
    }

    /// Message ids written and not acknowledged yet.
    package var inFlightIDs: [String] { inFlight.keys.map(\.rawValue) }

    /// Messages written and not acknowledged at most, for a reader that asks
    /// (`waitForRoom`): enough to keep the stream full between acks (asked for every
    /// batch, and every 1,000 stanzas), few enough that memory stays flat however fast
    /// the input comes.
    package static let defaultWindow = 8192
    package var window = ChatOutbox.defaultWindow

    /// With `window` messages in flight: runs the connection until acks make room, the
    /// connection is lost (for `reconnectIfLost`), or nothing was acknowledged for
    /// `timeout` seconds (what is in flight then waits in the outbox, as in `finish`).
    package func waitForRoom(timeout: Double = 15) {
        let start = ContinuousClock.now
        while failure == nil, disconnected == nil, inFlight.count >= window {
            link.connection.pump(timeout: 0.1) { [unowned self] in inFlight.count < window }
            if ContinuousClock.now - max(start, lastProgress) > .seconds(timeout) {
                lose(Failure(.temporary, "the server acknowledged nothing more for \(Int(timeout)) s",
                                    hint: "it may be overloaded; try again later"))
            }
        }
        recordAcknowledged()
    }

    /// After a lost connection nothing more is sent: a new outbox serves the next one.
    package var hasFailed: Bool { failure != nil }

    /// Queues and sends a batch (one cache transaction for the batch: a stream
    /// of lines is not one fsync per line). After a lost connection, messages
    /// are still queued but not sent.
    package func send(_ texts: [String], to dialog: CachedDialog) throws(Failure) {
        try send(texts.map { ($0, []) }, to: dialog)
    }

    /// Queues and sends one message with attachments (blobs already uploaded and
    /// completed: each `id` a blob uid), as `<attachment/>` elements in extraParams
    /// (docs/protocol.md §8); an empty `text` becomes `[attachment]`, as the SDKs send it.
    package func send(_ text: String, attachments: [QBAttachment], to dialog: CachedDialog) throws(Failure) {
        try send([(text, attachments)], to: dialog)
    }

    private func send(_ drafts: [(text: String, attachments: [QBAttachment])], to dialog: CachedDialog) throws(Failure) {
        guard !drafts.isEmpty else { return }
        let drafts = drafts.map { (MessagingService.body($0.text, attachments: $0.attachments), $0.attachments) }
        let now = Int(Date().timeIntervalSince1970)
        let ids = drafts.map { _ in link.connection.makeMessageID() }
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
        let (to, kind) = try link.address(of: dialog)
        var messages: [OutgoingChatMessage] = []
        for (id, (text, attachments)) in zip(ids, drafts) {
            let message = OutgoingChatMessage(id: id, kind: kind, to: to, body: text, dialogID: dialog.id,
                                              saveToHistory: true, markable: true, dateSent: now,
                                              attachments: attachments.map(ChatAttachment.init))
            if message.validationProblem != nil {
                // XML cannot carry some characters (ESC and other C0 controls);
                // JSON over REST can, so such a message goes that way instead.
                do {
                    let stored = try service.deliverViaREST(clientMessageID: id.rawValue, text: text, attachments: attachments,
                                                            dialogID: dialog.id)
                    delivered += 1
                    onDelivered?(stored)
                } catch {
                    release(id.rawValue)
                    undelivered += 1
                    if failure == nil { failure = error }
                }
                continue
            }
            sentCount += 1
            inFlight[id] = (dialog, text, now, attachments, sentCount)
            messages.append(message)
        }
        guard !messages.isEmpty else { return }
        do { _ = try link.connection.send(contentsOf: messages) } catch {
            connectionFailed(Failure(describing: error))
        }
    }

    /// Sends outbox entries again under their own ids (the stanza id is the
    /// message's `_id`): should the first attempt still reach the server, it
    /// keeps one copy. The entries must be claimed by this outbox's owner.
    package func resend(_ entries: [OutboxEntry], to dialog: CachedDialog) throws(Failure) {
        try resend(entries.map { ($0.clientMessageID, $0.text, CacheRecords.attachments($0.attachmentsJSON)) }, to: dialog)
    }

    func resend(_ entries: [(clientMessageID: String, text: String, attachments: [QBAttachment])], to dialog: CachedDialog) throws(Failure) {
        let now = Int(Date().timeIntervalSince1970)
        let (to, kind) = try link.address(of: dialog)
        var messages: [OutgoingChatMessage] = []
        for entry in entries {
            let id = ObjectID(entry.clientMessageID)
            let attachments = entry.attachments
            let message = id.map { OutgoingChatMessage(id: $0, kind: kind, to: to, body: entry.text, dialogID: dialog.id,
                                                       saveToHistory: true, markable: true, dateSent: now,
                                                       attachments: attachments.map(ChatAttachment.init)) }
            guard let id, let message, message.validationProblem == nil, failure == nil else {
                // XML cannot carry it (it went over REST the first time, and the
                // history check knows REST sends by their client id), or chat is down.
                if failure == nil, let stored = try? service.deliverViaREST(clientMessageID: entry.clientMessageID, text: entry.text,
                                                                          attachments: attachments, dialogID: dialog.id) {
                    delivered += 1
                    onDelivered?(stored)
                } else {
                    release(entry.clientMessageID)
                    undelivered += 1
                }
                continue
            }
            sentCount += 1
            inFlight[id] = (dialog, entry.text, now, attachments, sentCount)
            messages.append(message)
        }
        guard !messages.isEmpty else { return }
        do { _ = try link.connection.send(contentsOf: messages) } catch {
            connectionFailed(Failure(describing: error))
        }
    }

    /// Moves what the server acknowledged into history now (a listener pumps the link, not this outbox).
    package func recordDelivered() { recordAcknowledged() }

    /// Runs the connection for up to `timeout` seconds, processing acks.
    package func pump(timeout: Double) {
        guard failure == nil, disconnected == nil else { return }
        link.connection.pump(timeout: timeout)
        if timeout > 0 || acknowledged.count >= 1000 { recordAcknowledged() }
    }

    /// Waits until everything sent is acknowledged, for as long as acks keep
    /// coming (a large batch takes a while), giving up after `timeout` seconds
    /// without progress; what is not acknowledged stays in the outbox.
    /// With `reconnects`, a connection lost meanwhile is re-made first.
    /// Returns the first failure, if any.
    package func finish(timeout: Double = 15) -> Failure? {
        var lastProgress = ContinuousClock.now
        var acknowledged = link.connection.acknowledgedCount
        while failure == nil && (!inFlight.isEmpty || disconnected != nil) {
            if disconnected != nil {
                reconnectIfLost()
                lastProgress = .now
                acknowledged = link.connection.acknowledgedCount
                continue
            }
            do {
                try link.connection.waitForAcknowledgement(timeout: 1)
                break // everything sent is acknowledged; anything still in flight is handled below
            } catch where error.kind == .timedOut && link.connection.isConnected {
                if link.connection.acknowledgedCount != acknowledged {
                    acknowledged = link.connection.acknowledgedCount
                    lastProgress = .now
                } else if ContinuousClock.now - lastProgress > .seconds(timeout) {
                    lose(Failure(.temporary, "the server acknowledged nothing more for \(Int(timeout)) s",
                                        hint: "it may be overloaded; try again later"))
                }
            } catch {
                connectionFailed(Failure(describing: error))
            }
        }
        recordAcknowledged()
        if !inFlight.isEmpty { lose(failure ?? Failure(.temporary, "the server did not acknowledge every message in time")) }
        return failure
    }

    /// Acks, bounces, markers and losses of the link (called by the link itself,
    /// or by the owner that routes the link's events).
    package func handle(_ event: ChatEvent) {
        switch event {
        case .delivered(let ids):
            for id in ids {
                guard let sent = inFlight.removeValue(forKey: id) else { continue }
                lastProgress = .now
                let recipient = sent.dialog.type == .private ? (sent.dialog.occupantIDs.first { $0 != link.me } ?? 0) : 0
                acknowledged.append((id.rawValue, CachedMessage(sentID: id.rawValue, dialogID: sent.dialog.id, sender: link.me,
                                                                recipient: recipient, text: sent.text, dateSent: sent.sentAt,
                                                                attachments: sent.attachments)))
            }
            if acknowledged.count >= 1000 { recordAcknowledged() }
        case .connectionLost(let error, _):
            connectionFailed(Failure(describing: error))
        case .marker(let marker):
            take(marker)
        case .messageError(let error):
            // The server refused one message (e.g. not an occupant): it stays in the outbox.
            if let id = error.id.flatMap(ObjectID.init), inFlight.removeValue(forKey: id) != nil {
                release(id.rawValue)
                undelivered += 1
                if failure == nil { failure = Failure(.failure, "the server refused a message: \(error.condition)") }
            }
        default:
            break
        }
    }

    /// Moves acknowledged messages from the outbox to history, many per
    /// transaction (one per ack of 50 was most of the cost of a stream). One
    /// not recorded yet when the process dies is still in the outbox, and a
    /// flush finds it in the server's history by id.
    func recordAcknowledged() {
        guard !acknowledged.isEmpty else { return recordMarkers() }
        let batch = acknowledged
        acknowledged.removeAll(keepingCapacity: true)
        do {
            try service.cache.markDelivered(batch)
            delivered += batch.count
            for (_, record) in batch { onDelivered?(record) }
        } catch {
            for (id, _) in batch { release(id) }
            undelivered += batch.count
        }
        recordMarkers()
    }

    /// A marker for one of ours: held while the message is on its way to history.
    private func take(_ marker: ChatMarker) {
        let id = ObjectID(marker.messageID)
        if let id, inFlight[id] != nil || acknowledged.contains(where: { $0.clientMessageID == marker.messageID }) {
            earlyMarkers.append(marker)
        } else {
            markers.take(marker)
        }
    }

    /// Records the markers heard (those held back, too, once their message is in history).
    private func recordMarkers() {
        let held = earlyMarkers
        earlyMarkers.removeAll()
        for marker in held { take(marker) }
        markers.flush()
    }

    func lose(_ error: Failure) {
        recordAcknowledged()
        if failure == nil { failure = error }
        for id in inFlight.keys { release(id.rawValue) }
        undelivered += inFlight.count
        inFlight.removeAll()
    }

    func release(_ clientMessageID: String) {
        service.noteFailure(clientMessageID: clientMessageID, owner: owner, error: failure ?? Failure(.temporary, "not acknowledged"))
    }
}
