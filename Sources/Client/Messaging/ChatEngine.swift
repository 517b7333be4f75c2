#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import MessageCache
import Threads
import XMPPTransport

/// The one owner of a live chat session, for every command that chats (docs/architecture.md,
/// "The chat engine"): `listen`, `send --lines`, `outbox flush`, `read` and the chat view all
/// drive it. It connects and reconnects (one loop, one backoff: `ReconnectPolicy`), hears
/// messages and files them (ChatEngine+Receiving.swift), sends through the outbox
/// (`OutboxSender`) and flushes it, exchanges markers, marks what a person saw read and tries
/// again when that fails, brings a followed dialog up to date after a gap and pages its older
/// history, and keeps the REST session alive. It takes commands as values (`perform`) and
/// tells everything as one typed event (`ChatEngineEvent`) to the handler it was made with.
/// What state it is in and what to do next is `ChatEngineCore`'s to say, a value driven by
/// events; this class holds the I/O and performs the effects the core returns.
///
/// Confined to one thread, like its link: the command's own (`run`, or the steps `connect`,
/// `perform`, `pump`, `finish`), or a worker's (`LiveChat`), whose commands it takes between
/// turns of the connection.
package final class ChatEngine {
    package struct Settings: Sendable {
        /// Which dialogs are heard: all of the user's (joining their rooms), some, or none
        /// (a command that only sends: nothing is listed or joined but what it sends to).
        package enum Dialogs: Sendable, Equatable {
            case all
            case only([DialogID])
            case none
        }
        package var dialogs: Dialogs = .none
        package var reconnect: ReconnectPolicy = .never
        /// A person sees each message handed on (`listen` on a terminal): it is marked read,
        /// over REST and with a `displayed` marker (docs/protocol.md §7).
        package var marksHeardRead = false
        /// Stop once this many messages from others were handed on (`listen --count`).
        package var handLimit: Int?
        /// A group whose room cannot be joined (one the server no longer has for us) is told
        /// about and left out, instead of failing the connect (the chat view).
        package var skipsRoomsThatFail = false
        /// Tell the dialogs as the cache has them (`.dialogs`) after each connect and notice.
        package var reportsDialogList = false
        /// How many messages a page of a followed dialog's history holds: the chat view's
        /// (`Conversation.pageSize`), so that a page brought up to date is the page it shows.
        package var pageSize = 100
        /// The longest a turn of the loop waits for the server.
        package var turnSeconds = 0.25
        /// Messages written and not acknowledged at most, for a sender that asks (`waitForRoom`):
        /// enough to keep the stream full between acks, few enough that memory stays flat.
        package var window = 8192
        /// Seconds before a read mark that failed goes again.
        package var readMarkRetrySeconds = 5.0
        /// Refresh the REST session at least this often (tests and `make bench` only); nil: by its lifetime.
        package var maximumRefreshInterval: Double?
        /// Ask the server this often for the followed dialog's messages no stanza brought (ours,
        /// sent over REST from another device: no carbon copies those, docs/protocol.md §7); nil: never.
        package var followedRefreshSeconds: Double?
        /// Read whom the user blocks after each connect and whenever another session changes
        /// it (a privacy list push), and tell it (`.blocked`): the chat view.
        package var tracksBlocking = false

        package init() {}
    }

    /// What an owner asks of the engine (on the engine's thread, or posted to its worker).
    package enum Command: Sendable, Equatable {
        /// A dialog opened in the chat view: brought up to date now and after every gap.
        case follow(dialogID: DialogID)
        /// The chat view left its dialog (back to the list): nothing is followed.
        case unfollow
        /// Queues these texts in the outbox and sends them (`send --lines`).
        case send([String], dialogID: DialogID)
        /// An outbox entry queued by another thread of this process: send it.
        case deliver(clientID: String, dialogID: DialogID)
        case typing(ChatState, dialogID: DialogID)
        /// A person saw these messages: `displayed` to their senders, read over REST (again later if that fails).
        case displayed(ids: [String], dialogID: DialogID)
        /// The cache has nothing before `before`: ask the server.
        case fetchOlder(dialogID: DialogID, before: MessagePosition)
        case stop
        /// Replace the text of one of our messages (ChatEngine+Corrections.swift).
        case edit(messageID: String, dialogID: DialogID, text: String)
        /// Delete one of our messages for everyone.
        case delete(messageID: String, dialogID: DialogID)
        /// Accept or refuse a user's contact request (ChatEngine+Contacts.swift).
        case answerContact(userID: Int, accept: Bool)
        /// Block or unblock a user (ChatEngine+Blocking.swift); told as `.blocked`, or a notice.
        case block(userID: Int, BlockListExchange.Change)
    }

    package let link: any ChatLinking
    package let service: MessagingService
    package let settings: Settings
    /// Claims outbox entries for this process.
    let owner: Int
    private let handler: (ChatEngineEvent) -> Void
    let markers: MarkerExchange
    let outbox: OutboxSender
    /// Commands from other threads, when the engine runs on a worker.
    var worker: WorkerThread<Command>?
    /// Entries whose files are not all up go there to be finished (the chat view's files
    /// thread); without it they are finished here, before they are sent.
    var uploadsElsewhere: ((OutboxEntry) -> Void)?

    /// The engine's state and its decisions (ChatEngineCore.swift); this class performs
    /// what it asks (ChatEngine+Effects.swift) and feeds the outcome back.
    var core: ChatEngineCore

    // MARK: what the link and the cache need at hand

    /// Ids for messages that arrive without one.
    var localIDs = ObjectIDGenerator()
    /// Unix seconds when the engine began: a message sent since then that another process of
    /// this account cached first is still handed on here (once: `ChatEngineCore.wasHanded`).
    let startedAt = Int(Date().timeIntervalSince1970) - 2
    /// Messages filed from the batches of events handed on, cached together (`storeArrivals`);
    /// `outgoing`: ours, from another device.
    var arriving: [(record: CachedMessage, outgoing: Bool)] = []
    /// Handed on in this batch, told together (`.heard`).
    var heard: [HeardMessage] = []
    /// When `arriving` was last cached. Under a stream, what arrives within `storeInterval`
    /// of that waits for the next batch, so that one commit (its WAL frames, its search-index
    /// segment) carries many messages; a message after a lull is cached and shown at once.
    var lastStored = ContinuousClock.now - .seconds(1)
    static let storeInterval: Duration = .milliseconds(50)
    /// Messages wait no longer than this many in `arriving`.
    static let storeBatchLimit = 2000
    /// The names told so far, looked up in the cache and over REST.
    var names = SenderNames()
    /// Other users' presence (ChatEngine+Presence.swift).
    var presenceBook = PresenceBook()
    /// The contact list as this session learnt it (ChatEngine+Contacts.swift).
    var contacts = ContactExchange()
    /// Privacy list answers heard, by request id, until the request that waits takes them.
    var privacyAnswers: [String: PrivacyAnswer] = [:]
    /// The block list must be read again (connected, or another session changed it).
    var blockListStale = false

    /// `handler` gets every event, on this engine's thread, in order.
    package init(link: any ChatLinking, service: MessagingService, settings: Settings, owner: Int = Int(getpid()),
                 handler: @escaping (ChatEngineEvent) -> Void) {
        self.link = link; self.service = service; self.settings = settings; self.owner = owner; self.handler = handler
        core = ChatEngineCore(settings: settings)
        markers = MarkerExchange(link: link, cache: service.cache)
        outbox = OutboxSender(link: link, service: service, owner: owner, markers: markers)
        outbox.reconnects = settings.reconnect.attemptsPerLoss != 0
        link.onEvent = { [unowned self] event in route(event) }
        link.onEventsDelivered = { [unowned self] in if arrivalsAreDue { storeArrivals() } }
    }

    /// The link may outlive this object (its disconnect delivers last events).
    deinit {
        link.onEvent = nil
        link.onEventsDelivered = nil
    }

    func emit(_ event: ChatEngineEvent) { handler(event) }

    // MARK: running

    /// Runs until `stop`, `deadline`, the hand limit, or a failure that ends it (the first
    /// connect failing when the policy does not retry it, a refusal that stands, a session
    /// that cannot be kept). Later losses are survived as the policy says.
    package func run(until deadline: ContinuousClock.Instant? = nil) throws(Failure) {
        try drive(.runStarted(deadline: deadline))
        while !core.isDone(at: .now) {
            do {
                try turn()
                if let error = core.pendingLoss { try recover(from: error) }
            } catch where !settings.reconnect.refusalEnds {
                // The view keeps trying whatever went wrong (a session that could not be kept):
                // offline, then the reconnect loop.
                link.disconnect()
                try recover(from: error)
            }
        }
        settle()
        // Markers are only queued by libstrophe: let them reach the server before the connection goes.
        if connected {
            do { try markers.waitUntilSent() } catch { emit(.notice(.failed(.confirmMarkers, error))) }
        }
    }

    /// Online (`ChatEngineCore.Phase.online`).
    var connected: Bool { core.isOnline }
    /// The dialogs heard or sent to.
    var dialogs: [DialogID: CachedDialog] { core.dialogs }
    /// The chat view's open dialog.
    var followed: DialogID? { core.followed?.id }

    /// Stopped, or the hand limit reached: nothing more is handed on. (The deadline ends
    /// the run between turns, not in the middle of one: what the last turn read is still
    /// cached, told and acknowledged.)
    var handingEnded: Bool { core.handingEnded }

    /// One turn: the connection run for up to `turnSeconds` (returning early once a message
    /// waits to be cached, or a command), what arrived cached and handed on, the session kept
    /// alive, commands carried out, markers and read marks settled.
    private func turn() throws(Failure) {
        var slice = min(settings.turnSeconds, secondsUntilSessionRefresh)
        if let deadline = core.deadline { slice = min(slice, max(0, (deadline - .now) / .seconds(1))) }
        // A worker's commands are taken within 10 ms; a listener's loop wakes less often.
        let sliceMilliseconds: Int64 = worker == nil ? 50 : 10
        if arriving.isEmpty {
            link.pump(timeout: slice, sliceMilliseconds: sliceMilliseconds) { [unowned self] in
                !arriving.isEmpty || worker?.hasWork == true
            }
        }
        // Reading on, the rest of `storeInterval`, so a stream commits in batches.
        if !arriving.isEmpty && !arrivalsAreDue {
            let wait = max(0, (Self.storeInterval - (.now - lastStored)) / .seconds(1))
            link.pump(timeout: min(wait, slice), sliceMilliseconds: 2) { [unowned self] in arrivalsAreDue }
        }
        storeArrivals()
        try keepSessionAlive()
        endMutesIfDue()
        takeCommands()
        refreshBlockListIfStale()
        refreshFollowedIfDue()
        settle()
    }

    /// Carries out one command now, on the engine's thread.
    package func perform(_ command: Command) throws(Failure) {
        switch command {
        case .stop:
            feed(.stopRequested)
        case .unfollow:
            feed(.unfollowed)
        case .follow(let dialogID):
            feed(.followed(dialogID: dialogID, at: .now))
        case .send(let texts, let dialogID):
            try send(texts, to: try dialog(dialogID))
        case .deliver(let clientID, let dialogID):
            deliver(clientID, dialogID: dialogID)
        case .typing(let state, let dialogID):
            sendTyping(state, dialogID: dialogID)
        case .displayed(let ids, let dialogID):
            markDisplayed(ids, dialogID: dialogID)
        case .fetchOlder(let dialogID, let before):
            fetchOlder(dialogID, before: before)
        case .edit(let messageID, let dialogID, let text):
            edit(messageID, dialogID: dialogID, text: text)
        case .delete(let messageID, let dialogID):
            delete(messageID, dialogID: dialogID)
        case .answerContact(let userID, let accept):
            answerContact(userID, accept: accept)
        case .block(let user, let change):
            changeBlock(change, user: user)
        }
    }

    /// The worker's commands, in order; a failure of one is told and the rest go on.
    func takeCommands() {
        guard let worker else { return }
        for command in worker.take() {
            do { try perform(command) } catch { emit(.notice(.failed(.send, error))) }
        }
    }

    /// What a turn ends with: acks recorded (and told), markers written and recorded, read marks sent.
    func settle() {
        outbox.recordAcknowledged()
        let delivered = outbox.takeDelivered()
        if !delivered.isEmpty { emitMessages(.delivered(delivered)) }
        let (changed, failure) = markers.flush()
        if !changed.isEmpty { emitMessages(.changed(changed)) }
        if let failure, link.isConnected { emit(.notice(.failed(.sendMarkers, failure))) }
        settleReadMarks()
    }

    /// A dialog the engine knows, else the cache's.
    func dialog(_ id: DialogID) throws(Failure) -> CachedDialog {
        if let known = dialogs[id] { return known }
        guard let cached = try service.cached({ () throws(MessageCacheError) in try service.cache.dialog(id: id) }) else {
            throw Failure(.invalidInput, "dialog \(id) is not in the cache")
        }
        return cached
    }

    /// Tells an event that names messages, with the names of their senders first (looked up
    /// over REST the first time one is seen, when connected).
    func emitMessages(_ event: ChatEngineEvent, senders extra: Set<Int> = []) {
        var ids = extra
        switch event {
        case .heard(let batch):
            ids.formUnion(batch.map(\.message.senderID))
            feed(.news(dialogIDs: Set(batch.map(\.message.dialogID)), at: .now))
        case .delivered(let messages), .caughtUp(_, let messages):
            ids.formUnion(messages.map(\.senderID))
            feed(.news(dialogIDs: Set(messages.map(\.dialogID)), at: .now))
        case .changed(let messages), .olderLoaded(_, _, let messages, _):
            ids.formUnion(messages.map(\.senderID))
        default: break
        }
        let learnt = names.learn(ids, service: service, online: connected)
        if !learnt.isEmpty { emit(.names(learnt)) }
        emit(event)
    }
}

@available(*, unavailable)
extension ChatEngine: Sendable {}
