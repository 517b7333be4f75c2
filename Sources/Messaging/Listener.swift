#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import MessageCache
import XMPPTransport

/// Follows dialogs live: messages from others as they arrive, stored in the
/// cache and handed to `onMessage`. A lost connection is re-made with capped,
/// jittered backoff, and the gap is filled from history without duplicates
/// (the cache knows every id already seen, and the listener the last few thousand
/// it handed on, for what another process of the account cached first). Memory
/// stays flat.
package final class Listener {
    package let link: ChatLink
    package let service: MessagingService
    /// Empty: all of the user's dialogs.
    let followed: Set<String>
    var dialogs: [String: CachedDialog] = [:]
    var lastSeen: [String: Int] = [:]
    /// Ids for messages that arrive without one (Listener+Incoming.swift).
    var localIDs = ObjectIDGenerator()
    private var backoff = ReconnectBackoff(base: 0.5, cap: 30, stableAfter: 30)
    private var delivered = 0
    /// `--count`: one pump can bring many messages, so it is checked per message.
    private var limit: Int?
    private var connectedAt = ContinuousClock.now
    /// Unix seconds when listening began: a message sent since then that another process
    /// of this account cached first is still handed on here (once: `handed`).
    let startedAt = Int(Date().timeIntervalSince1970) - 2
    var handed = RecentMessageIDs()
    /// Whether a failure to cache a message was reported already (once is enough).
    private var cacheFailureNoted = false
    private var lost: MessagingError?
    /// Return false to stop listening.
    package var onMessage: (CachedMessage) -> Bool = { _ in true }
    /// Told about reconnects and gaps, for stderr.
    package var onNotice: (String) -> Void = { _ in }
    /// Told when a system notification brought a dialog ("alice added you to ops").
    package var onDialogNotice: (DialogNotice) -> Void = { _ in }
    /// Called once, when connected and joined: how many dialogs are followed.
    /// A script (or a test) waits for this instead of guessing with a sleep.
    package var onReady: (Int) -> Void = { _ in }
    /// Someone's chat state (XEP-0085, docs/protocol.md §7): the user and the dialog
    /// it names, if any. Our own (a room's echo) is not passed on.
    package var onChatState: (ChatState, _ userID: Int, _ dialogID: String?) -> Void = { _, _, _ in }
    /// The connection after the first connect: lost, waiting to retry, back.
    package var onConnectionChange: (ListenerConnectionChange) -> Void = { _ in }
    /// Called on every turn of the loop (at least every `turnSeconds`), and while
    /// waiting to reconnect: where an owner does its own work on this thread.
    package var onTurn: () -> Void = {}
    /// Called after the messages of one batch of events were handed to `onMessage`
    /// (e.g. to write out what they printed in one go).
    package var onBatchHanded: () -> Void = {}
    /// Every event, after the listener's own handling (e.g. to an outbox sharing the link).
    package var forwardEvent: ((ChatEvent) -> Void)?
    /// The longest a turn of the loop waits for the server.
    package var turnSeconds = 0.25
    /// A group whose room cannot be joined (a dialog the server no longer has for us)
    /// is told about and left out, instead of failing the connect (the chat view).
    package var skipsRoomsThatFail = false
    /// When the REST session is next refreshed (Listener+SessionUpkeep.swift).
    var refreshSchedule = SessionRefreshSchedule()
    var sessionRefreshFailing = false
    /// Refresh the session at least this often (tests and `make bench` only); nil: by its lifetime.
    package var maximumRefreshInterval: Double? {
        get { refreshSchedule.maximumInterval }
        set { refreshSchedule = SessionRefreshSchedule(maximumInterval: newValue) }
    }
    /// A person sees each message handed on (`listen` on a terminal): it is then
    /// marked read, over REST and with a `displayed` marker (docs/protocol.md §7).
    package var showsMessages = false
    /// Our markers out, theirs in.
    package private(set) lazy var markers = MarkerExchange(link: link, cache: service.cache)
    /// Messages shown since the last turn, to mark read over REST, by dialog.
    private var shown: [String: [CachedMessage]] = [:]
    /// Messages filed from the batches of events handed on, cached together
    /// (`storeArrivals`); `outgoing`: ours, from another device.
    var arriving: [(record: CachedMessage, outgoing: Bool)] = []
    /// When `arriving` was last cached. Under a stream, what arrives within
    /// `storeInterval` of that waits for the next batch, so that one commit (its WAL
    /// frames, its search-index segment) carries many messages; a message after a lull
    /// is cached and shown at once.
    var lastStored = ContinuousClock.now - .seconds(1)
    static let storeInterval: Duration = .milliseconds(50)
    /// Messages wait no longer than this many in `arriving`.
    static let storeBatchLimit = 2000

    /// The link may outlive this object (its disconnect delivers last events).
    deinit {
        link.connection.onEvent = nil
        link.connection.onEventsDelivered = nil
    }

    package init(link: ChatLink, service: MessagingService, dialogIDs: [String]) {
        self.link = link; self.service = service; self.followed = Set(dialogIDs)
    }

    /// Listens until `count` messages were handled, `deadline` passes, or the
    /// handler says stop. Connecting the first time must succeed; later losses are survived.
    package func run(count: Int?, deadline: ContinuousClock.Instant?) throws(MessagingError) {
        limit = count
        try refreshDialogs()
        link.connection.onEvent = { [weak self] event in self?.handle(event, count: count) }
        link.connection.onEventsDelivered = { [weak self] in
            if let self, self.arrivalsAreDue { self.storeArrivals() }
        }
        try link.connect()
        try joinRooms()
        connectedAt = .now
        // What was sent before this second is history, not news: a gap filled
        // after a reconnect starts here. (Times are whole seconds, so a message
        // sent in this very second before we were ready may still count as news.)
        let ready = Int(Date().timeIntervalSince1970)
        for id in dialogs.keys { lastSeen[id] = max(lastSeen[id] ?? 0, ready) }
        onReady(dialogs.count)
        startSessionUpkeep()
        while !done(count: count, deadline: deadline) {
            var slice = min(turnSeconds, secondsUntilSessionRefresh)
            if let deadline { slice = min(slice, max(0, seconds(deadline - .now))) }
            // A turn, ended early once a message waits to be cached; then, reading on,
            // the rest of its wait (`storeInterval`), so a stream commits in batches.
            if arriving.isEmpty { link.connection.pump(timeout: slice, sliceMilliseconds: 50) { [unowned self] in !arriving.isEmpty } }
            if !arriving.isEmpty && !arrivalsAreDue {
                let wait = max(0, seconds(Self.storeInterval - (.now - lastStored)))
                link.connection.pump(timeout: min(wait, slice), sliceMilliseconds: 2) { [unowned self] in arrivalsAreDue }
            }
            storeArrivals()
            try keepSessionAlive()
            if let error = lost {
                lost = nil
                backoff.connectionLasted(seconds(.now - connectedAt))
                onNotice("connection lost (\(error.message)); reconnecting")
                onConnectionChange(.lost(error))
                try reconnect(deadline: deadline)
                if done(count: count, deadline: deadline) { break }
                fillGaps(count: count)
            }
            settleReadState()
            onTurn()
        }
        settleReadState()
        // Markers are only queued by libstrophe: let them reach the server before the connection goes.
        do { try markers.waitUntilSent() } catch { onNotice("markers may not have reached the server (\(error.message))") }
    }

    var stopped = false

    /// Ends `run` at the end of this turn (from this thread: `onTurn`, a callback).
    package func stop() { stopped = true }

    private func done(count: Int?, deadline: ContinuousClock.Instant?) -> Bool {
        if stopped { return true }
        if let count, delivered >= count { return true }
        if let deadline, ContinuousClock.now >= deadline { return true }
        return false
    }

    func refreshDialogs() throws(MessagingError) {
        try service.syncDialogs()
        let all = try service.dialogs(type: nil, limit: nil, source: .cacheOnly)
        for dialog in all where followed.isEmpty || followed.contains(dialog.id) { dialogs[dialog.id] = dialog }
    }

    private func handle(_ event: ChatEvent, count: Int?) {
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
        case .marker(let marker):
            markers.take(marker)
        case .chatState(let state, let from, let dialogID):
            // From a user JID, or a room occupant whose nickname is the user id.
            let user = from.userID ?? (from.roomDialogID != nil ? from.resource.flatMap { Int($0) } : nil)
            if let user, user != link.me { onChatState(state, user, dialogID ?? from.roomDialogID) }
        case .connectionLost(let error, _):
            lost = MessagingError(describing: error)
        default:
            break
        }
        forwardEvent?(event)
    }

    /// Caches the messages filed from one batch of events in one transaction, then hands
    /// each on once, in order: one from others when new to the cache, or cached by another
    /// process of this account (a `sync`, another `listen`) since this one began, and not
    /// handed on yet; ours from another device each time it arrives, not counted (so
    /// `--count` and `--exec` are about others' messages, and a bot never answers itself).
    /// Under `--count`, no more of a batch is cached than can still be handed on: what is
    /// past the count is neither printed nor cached (nor marked received), and stays on the
    /// server for the next `listen`, `sync` or `history`.
    /// A cache that cannot be written (a full disk) does not stop messages being shown.
    func storeArrivals() {
        guard !arriving.isEmpty else { return }
        var batch = arriving[...]
        arriving.removeAll(keepingCapacity: true)
        defer { lastStored = .now }
        while !batch.isEmpty && !stopped {
            let part = batch.prefix(countableLength(of: batch))
            guard !part.isEmpty else { break }
            cacheAndHand(part)
            batch = batch.dropFirst(part.count)
        }
        onBatchHanded()
    }

    /// How much of `batch`, from its start, can be handed on before `--count` is reached:
    /// every message from others not handed on yet may count, so the part stops before the
    /// one that would be past the count (fewer may count; the rest is then taken next).
    private func countableLength(of batch: ArraySlice<(record: CachedMessage, outgoing: Bool)>) -> Int {
        guard let limit else { return batch.count }
        var room = limit - delivered
        for (offset, item) in batch.enumerated() where !item.outgoing && !handed.contains(item.record.id) {
            if room <= 0 { return offset }
            room -= 1
        }
        return batch.count
    }

    private func cacheAndHand(_ batch: ArraySlice<(record: CachedMessage, outgoing: Bool)>) {
        var isNew: [Bool]
        do { isNew = try service.cache.upsertMessagesReportingNew(batch.map(\.record)) } catch {
            if !cacheFailureNoted { onNotice("messages are shown but not cached: \(MessagingError(cache: error).message)") }
            cacheFailureNoted = true
            isNew = Array(repeating: true, count: batch.count)
        }
        for ((record, outgoing), new) in zip(batch, isNew) {
            guard !stopped else { break }
            if outgoing {
                if !onMessage(record) { stopped = true }
            } else if !handed.contains(record.id), new || record.dateSent >= startedAt {
                hand(record)
            }
        }
    }

    /// Whether what `arriving` holds should be cached and handed on now (`lastStored`).
    var arrivalsAreDue: Bool {
        !arriving.isEmpty && (arriving.count >= Self.storeBatchLimit || ContinuousClock.now - lastStored >= Self.storeInterval)
    }

    /// Passes on a message new to the cache, and counts it.
    func hand(_ message: CachedMessage) {
        handed.insert(message.id)
        lastSeen[message.dialogID] = max(lastSeen[message.dialogID] ?? 0, message.dateSent)
        delivered += 1
        if !onMessage(message) { stopped = true }
        if let limit, delivered >= limit { stopped = true }
        acknowledge(message)
    }

    /// Connects again with the current session token (a renewal may have
    /// replaced it). A token chat refuses is renewed over REST and tried once
    /// more at once; a refusal that stands ends listening (exit 4).
    private func reconnect(deadline: ContinuousClock.Instant?) throws(MessagingError) {
        var waitFirst = true
        while !stopped {
            if waitFirst {
                let wait = backoff.nextDelay()
                if let deadline, ContinuousClock.now + .milliseconds(Int64(wait * 1000)) >= deadline { stopped = true; return }
                onConnectionChange(.retrying(in: wait))
                pause(seconds: wait)
                if stopped { return }
            }
            waitFirst = true
            if let token = service.api.token { link.useSessionToken(token) }
            do {
                try link.connect()
                try joinRooms()
                connectedAt = .now
                onNotice("reconnected")
                onConnectionChange(.reconnected)
                return
            } catch where error.kind == .authentication {
                // The session may have gone while chat was down: renew it over REST.
                let refused = service.api.token
                if try refreshSession() {
                    // The same token still works over REST: chat's refusal stands.
                    guard service.api.token != refused else { throw error }
                    waitFirst = false
                }
            } catch {
                onNotice("reconnect failed (\(error.message)); retrying in up to \(Int(backoff.currentCeiling)) s")
            }
            try keepSessionAlive()
        }
    }

    /// Messages that arrived while disconnected, from history, each once.
    private func fillGaps(count: Int?) {
        storeArrivals()
        for dialogID in dialogs.keys.sorted() {
            guard !done(count: count, deadline: nil) else { return }
            let since = lastSeen[dialogID] ?? 0
            guard let missed = try? service.newMessages(dialogID: dialogID, since: since - 1, alsoCachedSince: startedAt) else { continue }
            for message in missed where message.senderID != link.me && !handed.contains(message.id) {
                hand(message)
                if done(count: count, deadline: nil) { return }
            }
        }
    }

    // MARK: read state

    /// A message handed on gets `received`; one a person saw also `displayed`,
    /// and is marked read over REST at the end of this turn.
    private func acknowledge(_ message: CachedMessage) {
        markers.queue(.received, for: message)
        guard showsMessages else { return }
        markers.queue(.displayed, for: message)
        shown[message.dialogID, default: []].append(message)
    }

    /// Once per turn of the loop: markers written in one go, markers heard
    /// recorded, shown messages marked read. Failures are told, not fatal.
    private func settleReadState() {
        if let error = markers.flush(), link.connection.isConnected {
            onNotice("chat markers: \(error.message)")
        }
        guard !shown.isEmpty else { return }
        let batch = shown
        shown.removeAll()
        for (dialogID, messages) in batch.sorted(by: { $0.key < $1.key }) {
            do { try service.markRead(messages, dialogID: dialogID) } catch {
                onNotice("could not mark \(messages.count) message\(messages.count == 1 ? "" : "s") read (\(error.message))")
            }
        }
    }

    /// The rooms of the followed groups; with `skipsRoomsThatFail`, one at a time.
    private func joinRooms() throws(MessagingError) {
        guard skipsRoomsThatFail else { return try link.joinRooms(of: Array(dialogs.values)) }
        for dialog in dialogs.values.sorted(by: { $0.id < $1.id }) where dialog.type != .private {
            do { try link.joinRooms(of: [dialog]) } catch {
                // A lost connection is not the room's fault.
                guard link.connection.isConnected else { throw error }
                onNotice("could not join \(dialog.name.isEmpty ? dialog.id : dialog.name): \(error.message)")
            }
        }
    }

    /// Waits, turning (`onTurn`) every `turnSeconds`, so an owner's work and a stop are not held up.
    private func pause(seconds total: Double) {
        let end = ContinuousClock.now + .milliseconds(Int64(total * 1000))
        while !stopped && ContinuousClock.now < end {
            usleep(useconds_t(max(0, min(turnSeconds, seconds(end - .now))) * 1_000_000))
            onTurn()
        }
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
