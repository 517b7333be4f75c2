#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ChatView
import MessageCache
import Messaging
import Synchronization
import XMPPTransport

/// The network side of `chatctl chat`, on a thread of its own: the same `Listener`
/// as `listen` (every dialog, reconnects, gaps filled, `received` markers), an
/// outbox sender on its link, typing states, `displayed` markers and read over REST,
/// older history from the server. It owns its own messaging service and cache
/// connection; it talks to the terminal's loop only through the `ChatInbox` (events
/// out) and its `Mailbox` (commands in). Offline it keeps trying, with backoff.
final class ChatBackend {
    enum Command: Sendable {
        /// A dialog opened: bring it up to date from the server.
        case follow(dialogID: String)
        /// An outbox entry the view queued (claimed by this process): send it.
        case deliver(clientID: String, dialogID: String)
        case typing(TypingState, dialogID: String)
        case displayed(ids: [String], dialogID: String)
        /// The cache has nothing before `before`: ask the server.
        case fetchOlder(dialogID: String, before: MessageCursor)
        case stop
    }

    typealias Handle = ChatWorkQueue<Command>

    private let session: MessagingSession
    private var service: MessagingService { session.service }
    private let inbox: ChatInbox
    private let handle: Handle
    /// Entries whose files are not all up go there to be finished.
    private let transfers: ChatTransfers.Handle
    private let owner = Int(getpid())
    /// The chat password when the config authenticates chat with it; else the session token is used.
    private let chatPassword: String?
    private let verboseLog: (@Sendable (String) -> Void)?
    private var listener: Listener?
    private var outbox: ChatOutbox?
    private var connected = false
    private var stopping = false
    private var followed: String?
    /// Seen on the screen while read state could not reach the server: tried again when connected.
    private var unsentDisplayed: [String: Set<String>] = [:]
    private var names: [Int: String] = [:]
    private var backoff = ReconnectBackoff(base: 1, cap: 30, stableAfter: 30)

    private init(session: MessagingSession, inbox: ChatInbox, handle: Handle, transfers: ChatTransfers.Handle,
                 chatPassword: String?, verboseLog: (@Sendable (String) -> Void)?) {
        self.session = session; self.inbox = inbox; self.handle = handle; self.transfers = transfers
        self.chatPassword = chatPassword; self.verboseLog = verboseLog
    }

    /// Starts the loop on `handle`, on a thread of its own, which owns `session` from
    /// now on (no other thread may use it); the command `stop` ends it.
    static func start(_ handle: Handle, session: MessagingSession, inbox: ChatInbox, transfers: ChatTransfers.Handle,
                      chatPassword: String?, verboseLog: (@Sendable (String) -> Void)?) {
        let backend = UncheckedTransfer(ChatBackend(session: session, inbox: inbox, handle: handle, transfers: transfers,
                                                    chatPassword: chatPassword, verboseLog: verboseLog))
        DetachedThread.start { backend.value.run() }
    }

    // MARK: the loop

    private func run() {
        defer { handle.finish() }
        while !stopping {
            inbox.post(.connection(.connecting))
            do {
                let link = try ChatLink.make(for: session, password: chatPassword, verboseLog: verboseLog)
                let listener = Listener(link: link, service: service, dialogIDs: [])
                listener.turnSeconds = 0.05
                listener.skipsRoomsThatFail = true
                wire(listener)
                self.listener = listener
                try listener.run(count: nil, deadline: nil)
                connected = false
            } catch {
                connected = false
                listener = nil
                outbox = nil
                if stopping { break }
                let delay = backoff.nextDelay()
                let reason = Self.reason(error)
                inbox.post(.connection(.offline(reason, retryAt: Date().timeIntervalSince1970 + delay)))
                let end = ContinuousClock.now + .milliseconds(Int64(delay * 1000))
                while !stopping && ContinuousClock.now < end {
                    usleep(50_000)
                    turn()
                }
            }
        }
    }

    private func wire(_ listener: Listener) {
        listener.onReady = { [unowned self] _ in self.cameOnline() }
        listener.onMessage = { [unowned self] message in
            self.post([message], as: { .messagesArrived($0) })
            return true
        }
        listener.onChatState = { [unowned self] state, user, dialogID in
            guard let typing = TypingState(rawValue: state.rawValue) else { return }
            self.inbox.post(.typing(userID: user, dialogID: dialogID, typing))
        }
        listener.onConnectionChange = { [unowned self] change in
            switch change {
            case .lost(let error):
                self.connected = false
                self.inbox.post(.connection(.offline(error.message, retryAt: nil)))
                self.pendingChanged()
            case .retrying(let seconds):
                self.inbox.post(.connection(.reconnecting(at: Date().timeIntervalSince1970 + seconds)))
            case .reconnected:
                self.cameOnline()
            }
        }
        listener.onNotice = { [unowned self] notice in
            // Losses and reconnects show in the status line's connection state instead.
            guard !notice.hasPrefix("connection lost"), notice != "reconnected", !notice.hasPrefix("reconnect failed") else { return }
            self.inbox.post(.notice(notice))
        }
        listener.onDialogNotice = { [unowned self] _ in self.postDialogs() }
        listener.onTurn = { [unowned self] in self.turn() }
        listener.forwardEvent = { [unowned self] event in
            self.outbox?.handle(event)
            if case .connectionLost = event { self.pendingChanged() }
        }
        listener.markers.onChange = { [unowned self] changed in self.post(changed, as: { .messagesChanged($0) }) }
    }

    /// Connected (first time or again): a new outbox, what waited in the outbox
    /// sent, the open dialog brought up to date, the dialogs and unread counts fresh.
    private func cameOnline() {
        guard let listener else { return }
        connected = true
        inbox.post(.connection(.connected))
        let outbox = ChatOutbox(link: listener.link, service: service, owner: owner, routesEvents: false)
        outbox.onDelivered = { [unowned self] record in
            self.post([record], as: { .messagesArrived($0) })
        }
        outbox.markers.onChange = { [unowned self] changed in self.post(changed, as: { .messagesChanged($0) }) }
        self.outbox = outbox
        flushOutbox()
        if let followed { catchUp(followed) }
        _ = try? service.refreshUnreadCounts()
        postDialogs()
        for (dialogID, ids) in unsentDisplayed { markDisplayed(Array(ids), dialogID: dialogID) }
    }

    /// Each turn: acks recorded, commands carried out, a stop honoured.
    private func turn() {
        outbox?.recordDelivered()
        for command in handle.take() {
            switch command {
            case .stop:
                stopping = true
                listener?.stop()
            case .follow(let dialogID):
                followed = dialogID
                if connected { catchUp(dialogID) }
            case .deliver(let clientID, let dialogID):
                deliver(clientID, dialogID: dialogID)
            case .typing(let state, let dialogID):
                sendTyping(state, dialogID: dialogID)
            case .displayed(let ids, let dialogID):
                markDisplayed(ids, dialogID: dialogID)
            case .fetchOlder(let dialogID, let before):
                fetchOlder(dialogID, before: before)
            }
        }
    }

    // MARK: sending

    private func deliver(_ clientID: String, dialogID: String) {
        guard connected, let outbox, !outbox.hasFailed, !outbox.inFlightIDs.contains(clientID) else { return }
        guard let entry = try? service.pendingOutbox().first(where: { $0.clientMessageID == clientID }), entry.isReadyToSend,
              let dialog = try? service.cache.dialog(id: dialogID) else { return }
        do { try outbox.resend([entry], to: dialog) } catch {
            inbox.post(.notice("could not send: \(error.message)"))
        }
        pendingChanged()
    }

    /// What waited in the outbox, each exactly once: the entries the server already
    /// has leave it, the rest go again under their own ids (as `outbox flush`).
    private func flushOutbox() {
        guard let outbox else { return }
        let claimed: (alreadyThere: Int, toSend: [(CachedDialog, [OutboxEntry])], failures: [MessagingError])
        do { claimed = try service.claimForFlush(owner: owner) } catch {
            inbox.post(.notice("the outbox could not be sent: \(error.message)"))
            return
        }
        if let failure = claimed.failures.first { inbox.post(.notice("some of the outbox could not be sent: \(failure.message)")) }
        for (dialog, claimedEntries) in claimed.toSend {
            // A message goes only with all its files: the transfers thread finishes those first.
            for entry in claimedEntries where !entry.isReadyToSend { transfers.post(.finish(clientID: entry.clientMessageID)) }
            let entries = claimedEntries.filter(\.isReadyToSend)
            guard !entries.isEmpty else { continue }
            do {
                try listener?.link.joinRooms(of: [dialog])
                try outbox.resend(entries, to: dialog)
            } catch {
                inbox.post(.notice("could not send to \(dialog.name.isEmpty ? dialog.id : dialog.name): \(error.message)"))
            }
        }
        pendingChanged()
        // Entries the server already had are history now: the open dialog shows them as such.
        if claimed.alreadyThere > 0, let followed, let recent = try? service.cache.history(dialogID: followed, limit: 50) {
            post(recent, as: { .messagesArrived($0) })
        }
    }

    /// The open dialog's outbox entries, as the view shows them.
    private func pendingChanged() {
        guard let followed, let entries = try? service.pendingOutbox() else { return }
        let inFlight = Set(connected ? outbox?.inFlightIDs ?? [] : [])
        let shown = entries.filter { $0.dialogID == followed }.map { ChatViewRecords.pending($0, me: service.me, inFlight: inFlight) }
        inbox.post(.pendingChanged(dialogID: followed, shown))
    }

    private func sendTyping(_ state: TypingState, dialogID: String) {
        guard connected, let link = listener?.link, let dialog = try? service.cache.dialog(id: dialogID),
              let chatState = ChatState(rawValue: state.rawValue), let (to, kind) = try? link.address(of: dialog) else { return }
        _ = try? link.connection.sendChatState(chatState, to: to, kind: kind, dialogID: dialog.id)
    }

    // MARK: read state

    /// Messages a person saw: `displayed` to their senders, read over REST. Kept for
    /// later while either cannot reach the server.
    private func markDisplayed(_ ids: [String], dialogID: String) {
        let messages = ids.compactMap { try? service.cache.message(id: $0) }
        guard connected, let listener else {
            unsentDisplayed[dialogID, default: []].formUnion(ids)
            return
        }
        for message in messages { listener.markers.queue(.displayed, for: message) }
        do {
            try service.markRead(messages, dialogID: dialogID)
            unsentDisplayed[dialogID] = nil
        } catch {
            unsentDisplayed[dialogID, default: []].formUnion(ids)
        }
    }

    // MARK: history

    /// The open dialog's messages the cache lacks (since the newest it has, or the
    /// newest page when it has none), and the state of its newest page as the server
    /// has it now (markers that came while this was not connected).
    private func catchUp(_ dialogID: String) {
        do {
            let fresh: [CachedMessage]
            if let newest = try service.cached({ () throws(MessageCacheError) in try service.cache.newestMessage(dialogID: dialogID) }) {
                fresh = try service.newMessages(dialogID: dialogID, since: newest.dateSent - 1)
                try service.syncHistory(dialogID: dialogID, limit: Conversation.pageSize, before: newest.dateSent + 1, since: nil)
            } else {
                try service.syncHistory(dialogID: dialogID, limit: Conversation.pageSize, before: nil, since: nil)
                fresh = try service.history(dialogID: dialogID, limit: Conversation.pageSize, before: nil, since: nil,
                                            source: .cacheOnly, markRead: false)
            }
            post(fresh, as: { .messagesArrived($0) })
            let recent = try service.history(dialogID: dialogID, limit: Conversation.pageSize, before: nil, since: nil,
                                             source: .cacheOnly, markRead: false)
            post(recent, as: { .messagesChanged($0) })
            pendingChanged()
        } catch {
            inbox.post(.notice("could not bring the dialog up to date: \(error.message)"))
        }
    }

    private func fetchOlder(_ dialogID: String, before: MessageCursor) {
        do {
            // date_sent counts whole seconds: ask up to the cursor's second, past the messages of that
            // second the cache has (a burst shares one), for a page before them; the cache keeps each once.
            var bound: Int?
            var sameSecond = 0
            if before.dateSent != Int.max {
                bound = before.dateSent + 1
                sameSecond = try service.cached { () throws(MessageCacheError) in
                    try service.cache.messageCount(dialogID: dialogID, dateSent: before.dateSent)
                }
            }
            try service.syncHistory(dialogID: dialogID, limit: sameSecond + Conversation.pageSize, before: bound, since: nil)
            let page = try service.cached { () throws(MessageCacheError) in
                try service.cache.messages(dialogID: dialogID, beforeDate: before.dateSent, id: before.id, limit: Conversation.pageSize)
            }
            post(page, as: { .olderLoaded(dialogID: dialogID, before: before, $0, exhausted: page.isEmpty) })
        } catch {
            inbox.post(.olderLoaded(dialogID: dialogID, before: before, [], exhausted: false))
            inbox.post(.notice("older messages could not be fetched: \(error.message)"))
        }
    }

    // MARK: to the view

    /// One line for the status bar, whatever failed.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as MessagingError: return TerminalText.sanitize(error.message, newlines: .asSpaces)
        case let error as AuthFlowError:
            return TerminalText.sanitize(error.message + (error.hint.map { " (\($0))" } ?? ""), newlines: .asSpaces)
        default: return TerminalText.sanitize(String(describing: error), newlines: .asSpaces)
        }
    }

    /// Posts messages as the view shows them, with the names of their senders
    /// (looked up over REST the first time one is seen).
    private func post(_ messages: [CachedMessage], as event: ([ShownMessage]) -> ScreenEvent) {
        let unknown = Set(messages.map(\.senderID)).filter { names[$0] == nil }
        if !unknown.isEmpty {
            if connected { try? service.fetchUsers(Array(unknown)) }
            let found = service.displayNames(unknown)
            names.merge(found) { $1 }
            if !found.isEmpty { inbox.post(.names(found.mapValues { TerminalText.sanitize($0, newlines: .asSpaces) })) }
        }
        inbox.post(event(messages.map { ChatViewRecords.message($0, me: service.me, names: names) }))
    }

    private func postDialogs() {
        guard let dialogs = try? service.dialogs(type: nil, limit: nil, source: .cacheOnly) else { return }
        let everyone = service.displayNames(Set(dialogs.flatMap(\.occupantIDs)))
        names.merge(everyone) { $1 }
        inbox.post(.dialogsLoaded(dialogs.map { ChatViewRecords.dialog($0, me: service.me, names: everyone) }))
    }
}

@available(*, unavailable)
extension ChatBackend: Sendable {}
