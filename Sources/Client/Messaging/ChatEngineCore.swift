import Diagnostics
import MessageCache
import XMPPTransport
import ChatIdentifiers

/// The chat engine's state as a value: events in, effects out (tested without threads or sockets), as
/// `ChatSessionState` is the XMPP session's. It decides the connection's phase (one
/// reconnect loop, one backoff: `ReconnectPolicy`), what a message handed on asks for,
/// the read marks that wait, the followed dialog's asks, and which failures are worth
/// telling; `ChatEngine` performs the effects (the link, REST, the cache) and feeds what
/// came of them back as events. No sockets and no clock: times come in with the events.
struct ChatEngineCore {
    /// Where the connection stands; `ChatEngine` is online only in `online`.
    enum Phase: Equatable {
        /// Not connected: not yet (nil), or since this failure (a loss the policy does not
        /// make good, the attempts given up, a command's connect that failed).
        case offline(Failure?)
        case connecting(Attempt)
        /// Connected and joined since this instant.
        case online(since: ContinuousClock.Instant)
        /// The reconnect loop waits until this instant before its next attempt.
        case waiting(until: ContinuousClock.Instant, Reconnect)
    }

    /// Why an attempt to connect is made, which says what its failure does.
    enum Attempt: Equatable {
        /// A command's own connect (`connect(joining:)`): a failure is the command's.
        case command
        /// The first connect of `run`: a failure ends it, unless the policy retries it.
        case first
        /// An attempt of the reconnect loop.
        case again(Reconnect)
        /// Chat refused the token: the REST session is being renewed before the loop goes on.
        case renewingSession(Reconnect, refusal: Failure)
    }

    /// The reconnect loop's count since the loss: attempts made, and how the last one failed.
    struct Reconnect: Equatable {
        var attempts: Int
        var lastFailure: Failure?
    }

    /// What came of renewing the REST session after chat refused the token.
    enum Renewal: Equatable {
        /// Alive, under a token other than the one chat refused: try again at once.
        case renewed
        /// Alive under the same token, or not reached: chat's refusal stands.
        case unchanged
        /// The session cannot be kept (no password to renew it).
        case failed(Failure)
    }

    /// Read marks of one dialog, sent together over REST.
    struct PendingRead: Equatable {
        var dialogID: DialogID
        var messages: [CachedMessage]
    }

    enum Event {
        /// A command connects (`connect(joining:)`).
        case connectRequested
        /// `run` begins: its first connect; it ends by `deadline`, if any.
        case runStarted(deadline: ContinuousClock.Instant?)
        /// The attempt succeeded at `at` (`unixTime`: the same moment in seconds since 1970).
        case connectSucceeded(at: ContinuousClock.Instant, unixTime: Int)
        /// The attempt failed; `lastAck`: when the server last acknowledged a message of ours.
        case connectFailed(Failure, at: ContinuousClock.Instant, lastAck: ContinuousClock.Instant)
        case sessionRenewed(Renewal, at: ContinuousClock.Instant, lastAck: ContinuousClock.Instant)
        /// The wait before the next attempt is over (or was cut short by `stop`).
        case waitEnded
        /// The link said the connection went: taken up at the end of the turn (`recover`).
        case linkLost(Failure)
        /// The connection went and is taken up now: what was in flight, then the reconnect loop.
        case recover(Failure, at: ContinuousClock.Instant, lastAck: ContinuousClock.Instant)
        case stopRequested

        /// A dialog the engine hears or sends to; `since`: unix seconds before which its
        /// messages are history, not news (a dialog learnt from a notification).
        case dialogKnown(CachedDialog, since: Int? = nil)
        /// A message from others handed on: counted, remembered, acknowledged.
        case handed(CachedMessage)
        /// The server had nothing else for a dialog up to `newest` (unix seconds): a gap filled.
        case gapFilled(dialogID: DialogID, newest: Int)

        /// A person saw these messages of a dialog.
        case displayed([CachedMessage], dialogID: DialogID)
        /// The end of a turn: read marks go if due.
        case readMarksDue(at: ContinuousClock.Instant)
        /// The read marks sent, with those that failed and why.
        case readMarksSent(failed: [(PendingRead, Failure)], at: ContinuousClock.Instant)

        case followed(dialogID: DialogID, at: ContinuousClock.Instant)
        case unfollowed
        /// Messages of these dialogs were heard, sent or found.
        case news(dialogIDs: Set<DialogID>, at: ContinuousClock.Instant)
        /// The followed dialog was asked of the server at `at`.
        case followedAsked(at: ContinuousClock.Instant)
        /// The newest `date_sent` the server had for the followed dialog when it was last asked.
        case followedWatermark(Int?)
        /// The last ask of the followed dialog failed (nil: it went).
        case followedAskEnded(Failure?)

        /// Connected for the first time: the REST session lasts until `expiresAt` (seconds since 1970).
        case sessionUpkeepStarted(now: Double, expiresAt: Double)
        /// The REST session was kept at `now` until `expiresAt`.
        case sessionKept(now: Double, expiresAt: Double)
        /// Keeping it failed for now (the server out of reach).
        case sessionKeepFailed(Failure, now: Double, expiresAt: Double)
        /// The server refused to keep it, and a command that sends goes on without it.
        case sessionRefused(Failure, now: Double)

        /// The cache was read for the next end of a mute (unix seconds) at `at`.
        case muteEndRead(Int?, at: ContinuousClock.Instant)
        /// Mutes that ended were undone on the server, or this failure left them for later.
        case mutesEnded(Failure?)

        /// Messages heard could not be cached.
        case cacheFailed(Failure)
    }

    enum Effect: Equatable {
        case tell(ChatEngineEvent)
        /// One attempt: the dialogs listed, the connect, the rooms (then `connectSucceeded` or `connectFailed`).
        case connect
        /// Wait, taking a worker's commands (then `waitEnded`).
        case wait(seconds: Double)
        /// Renew the REST session, then `sessionRenewed`.
        case renewSession
        /// Keep the REST session when due; its refusal ends the run.
        case keepSessionAlive
        /// The command or the run ends with this failure.
        case fail(Failure)
        /// The connection is gone: what is in flight waits for a reconnect or goes back to the outbox.
        case cutOff(Failure)
        /// No more attempts: what waits for the reconnect goes back to the outbox.
        case giveUp(Failure)
        case reportOutbox
        case startSessionUpkeep
        /// Connected again: what a cut left goes again.
        case resendStranded
        case fillGaps
        case flushOutbox
        case catchUp(dialogID: DialogID)
        case refreshPresence
        case askPresence(dialogID: DialogID)
        case refreshUnreadCounts
        case reportDialogs
        /// Everyone in the dialogs as the server has them now; the list again if a name changed.
        case refreshNames
        case queueMarker(ChatMarker.Kind, CachedMessage)
        /// Mark these read over REST (then `readMarksSent`).
        case markRead([PendingRead])
    }

    /// The followed dialog and its asks of the server.
    struct Followed: Equatable {
        var id: DialogID
        /// The newest `date_sent` the server had when last asked: the next ask starts a second before it.
        var watermark: Int?
        /// When the view last had news of it: a dialog quiet for a minute is asked less often.
        var newsAt: ContinuousClock.Instant
    }

    let settings: ChatEngine.Settings
    private(set) var phase: Phase = .offline(nil)
    /// `stop` came, or the deadline: no more is handed on or tried; the connection, if up,
    /// stays for the last markers and read marks.
    private(set) var isStopped = false
    /// What the link said went, until the end of the turn takes it up.
    private(set) var pendingLoss: Failure?
    private var everConnected = false
    private var policy: ReconnectPolicy
    private var random: any RandomNumberGenerator
    /// When `run` ends.
    private(set) var deadline: ContinuousClock.Instant?

    private(set) var dialogs: [DialogID: CachedDialog] = [:]
    /// Per dialog, unix seconds up to which what was said is known: a gap fill starts there.
    private(set) var lastSeen: [DialogID: Int] = [:]
    private var handed = RecentMessageIDs()
    private(set) var handedCount = 0
    private var readMarks = ReadMarks()

    private(set) var followed: Followed?
    /// When the followed dialog was last asked (kept across follows, as the view's interval is).
    private(set) var followedAskedAt: ContinuousClock.Instant
    private var followedAskFailing = false

    private(set) var refreshSchedule: SessionRefreshSchedule
    private var sessionKeepFailing = false
    private(set) var muteEndsAt: Int?
    private(set) var muteEndsReadAt: ContinuousClock.Instant?
    private var muteEndFailing = false
    private var cacheFailureNoted = false

    init(settings: ChatEngine.Settings, now: ContinuousClock.Instant = .now,
         random: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.settings = settings
        policy = settings.reconnect
        self.random = random
        followedAskedAt = now
        refreshSchedule = SessionRefreshSchedule(maximumInterval: settings.maximumRefreshInterval)
    }

    // MARK: what the engine asks

    var isOnline: Bool { if case .online = phase { true } else { false } }

    /// Stopped, or the hand limit reached: nothing more is handed on.
    var handingEnded: Bool {
        if isStopped { return true }
        if let limit = settings.handLimit, handedCount >= limit { return true }
        return false
    }

    /// Whether `run` ends before its next turn.
    func isDone(at now: ContinuousClock.Instant) -> Bool {
        if handingEnded { return true }
        if let deadline, now >= deadline { return true }
        return false
    }

    func wasHanded(_ id: String) -> Bool { handed.contains(id) }

    /// Whether the followed dialog is to be asked of the server now (`followedRefreshSeconds`):
    /// a dialog quiet for a minute every 15 s at most often.
    func followedAskIsDue(at now: ContinuousClock.Instant) -> Bool {
        guard let followed, isOnline, let every = settings.followedRefreshSeconds else { return false }
        let quiet = now - followed.newsAt >= Self.followedQuietAfter
        let interval = quiet ? max(every, Self.quietRefreshSeconds) : every
        return now - followedAskedAt >= .seconds(interval)
    }

    static let followedQuietAfter = Duration.seconds(60)
    static let quietRefreshSeconds = 15.0

    /// Whether the cache is to be read again for the next end of a mute.
    func muteEndsNeedReading(at now: ContinuousClock.Instant) -> Bool {
        muteEndsReadAt.map { now - $0 >= .seconds(Self.muteEndsRereadSeconds) } ?? true
    }

    /// How often the cache is asked when the next mute ends (another chatctl may mute meanwhile).
    static let muteEndsRereadSeconds: Int64 = 15

    // MARK: events

    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .connectRequested:
            phase = .connecting(.command)
            return [.tell(.connection(.connecting)), .connect]
        case .runStarted(let deadline):
            self.deadline = deadline
            phase = .connecting(.first)
            return [.tell(.connection(.connecting)), .connect]
        case .connectSucceeded(let now, let unixTime):
            guard case .connecting(let attempt) = phase else { return [] }
            let again: Bool
            if case .again = attempt { again = everConnected } else { again = false }
            phase = .online(since: now)
            everConnected = true
            return cameOnline(again: again, unixTime: unixTime)
        case .connectFailed(let failure, let now, let lastAck):
            return connectFailed(failure, at: now, lastAck: lastAck)
        case .sessionRenewed(let renewal, let now, let lastAck):
            return sessionRenewed(renewal, at: now, lastAck: lastAck)
        case .waitEnded:
            guard case .waiting(_, var loop) = phase else { return [] }
            guard !isStopped else {
                phase = .offline(loop.lastFailure)
                return []
            }
            loop.attempts += 1
            phase = .connecting(.again(loop))
            return [.tell(.connection(.connecting)), .connect]
        case .linkLost(let failure):
            pendingLoss = failure
            return []
        case .recover(let failure, let now, let lastAck):
            pendingLoss = nil
            if case .online(let since) = phase { policy.backoff.connectionLasted((now - since) / .seconds(1)) }
            phase = .offline(failure)
            let told: [Effect] = [.cutOff(failure), .tell(.connection(.lost(failure))), .reportOutbox]
            guard policy.attemptsPerLoss != 0 else { return told }
            return told + nextAttempt(Reconnect(attempts: 0, lastFailure: nil), at: now, lastAck: lastAck)
        case .stopRequested:
            isStopped = true
            return []

        case .dialogKnown(let dialog, let since):
            dialogs[dialog.id] = dialog
            if let since { lastSeen[dialog.id] = max(lastSeen[dialog.id] ?? 0, since) }
            return []
        case .handed(let message):
            handed.insert(message.id)
            lastSeen[message.dialogID] = max(lastSeen[message.dialogID] ?? 0, message.dateSent)
            handedCount += 1
            guard settings.marksHeardRead else { return [.queueMarker(.received, message)] }
            readMarks.add([message], dialogID: message.dialogID)
            return [.queueMarker(.received, message), .queueMarker(.displayed, message)]
        case .gapFilled(let dialogID, let newest):
            lastSeen[dialogID] = max(lastSeen[dialogID] ?? 0, newest)
            return []

        case .displayed(let messages, let dialogID):
            readMarks.add(messages, dialogID: dialogID)
            return messages.map { .queueMarker(.displayed, $0) }
        case .readMarksDue(let now):
            guard isOnline, readMarks.isDue(at: now) else { return [] }
            return [.markRead(readMarks.take().map { PendingRead(dialogID: $0.dialogID, messages: $0.messages) })]
        case .readMarksSent(let failed, let now):
            guard !failed.isEmpty else {
                readMarks.succeeded()
                return []
            }
            let retry = Duration.milliseconds(Int64(settings.readMarkRetrySeconds * 1000))
            var effects: [Effect] = []
            for (read, failure) in failed where readMarks.failed(read.messages, dialogID: read.dialogID, at: now, retryAfter: retry) {
                // One notice for a run of failures.
                effects.append(.tell(.notice(.failed(.markRead(count: read.messages.count), failure))))
            }
            return effects

        case .followed(let dialogID, let now):
            followed = Followed(id: dialogID, watermark: nil, newsAt: now)
            return isOnline ? [.catchUp(dialogID: dialogID), .askPresence(dialogID: dialogID)] : []
        case .unfollowed:
            followed = nil
            return []
        case .news(let dialogIDs, let now):
            if let id = followed?.id, dialogIDs.contains(id) { followed?.newsAt = now }
            return []
        case .followedAsked(let now):
            followedAskedAt = now
            return []
        case .followedWatermark(let watermark):
            followed?.watermark = watermark
            return []
        case .followedAskEnded(let failure):
            defer { followedAskFailing = failure != nil }
            // One notice for a run of failures, not one every ask.
            guard let failure, !followedAskFailing else { return [] }
            return [.tell(.notice(.failed(.catchUp, failure)))]

        case .sessionUpkeepStarted(let now, let expiresAt):
            refreshSchedule.refreshed(at: now, expiresAt: expiresAt)
            return []
        case .sessionKept(let now, let expiresAt):
            refreshSchedule.refreshed(at: now, expiresAt: expiresAt)
            defer { sessionKeepFailing = false }
            return sessionKeepFailing ? [.tell(.notice(.sessionKeptAlive))] : []
        case .sessionKeepFailed(let failure, let now, let expiresAt):
            refreshSchedule.failed(at: now, expiresAt: expiresAt)
            return noteSessionFailure(failure)
        case .sessionRefused(let failure, let now):
            refreshSchedule.refused(at: now)
            return noteSessionFailure(failure)

        case .muteEndRead(let endsAt, let now):
            muteEndsAt = endsAt
            muteEndsReadAt = now
            return []
        case .mutesEnded(let failure):
            defer { muteEndFailing = failure != nil }
            guard let failure else { return [] }
            // Tried again at the next read of the cache; told once for a run of failures.
            muteEndsAt = nil
            return muteEndFailing ? [] : [.tell(.notice(.failed(.endMute, failure)))]

        case .cacheFailed(let failure):
            defer { cacheFailureNoted = true }
            return cacheFailureNoted ? [] : [.tell(.notice(.failed(.cacheMessages, failure)))]
        }
    }

    // MARK: connecting

    /// Connected (the first time or again): told, then what a gap left behind is caught up.
    private mutating func cameOnline(again: Bool, unixTime: Int) -> [Effect] {
        var effects: [Effect] = []
        if !again {
            // What was sent before this second is history, not news: a gap filled after a
            // reconnect starts here. (Times are whole seconds, so a message sent in this very
            // second before we were ready may still count as news.)
            for id in dialogs.keys { lastSeen[id] = max(lastSeen[id] ?? 0, unixTime) }
            effects.append(.startSessionUpkeep)
        }
        effects.append(.tell(.connection(.connected(following: settings.dialogs == .none ? 0 : dialogs.count, again: again))))
        effects.append(.resendStranded)
        if again { effects.append(.fillGaps) }
        guard settings.reportsDialogList || followed != nil else { return effects }
        // The chat view: what waited in the outbox, the open dialog, the unread counts, read marks.
        effects.append(.flushOutbox)
        if let followed { effects.append(.catchUp(dialogID: followed.id)) }
        if again { effects.append(.refreshPresence) }
        if let followed { effects.append(.askPresence(dialogID: followed.id)) }
        effects += [.refreshUnreadCounts, .reportDialogs]
        // Then the names as the server has them now.
        if settings.reportsDialogList && !again { effects.append(.refreshNames) }
        return effects
    }

    private mutating func connectFailed(_ failure: Failure, at now: ContinuousClock.Instant, lastAck: ContinuousClock.Instant) -> [Effect] {
        guard case .connecting(let attempt) = phase else { return [] }
        switch attempt {
        case .command:
            phase = .offline(failure)
            return [.fail(failure)]
        case .first:
            guard policy.retriesFirstConnect else {
                phase = .offline(failure)
                return [.fail(failure)]
            }
            return nextAttempt(Reconnect(attempts: 1, lastFailure: failure), at: now, lastAck: lastAck)
        case .again(var loop):
            // The session may have gone while chat was down: renewed over REST, then tried at once.
            if failure.kind == .authentication {
                phase = .connecting(.renewingSession(loop, refusal: failure))
                return [.renewSession]
            }
            loop.lastFailure = failure
            return attemptFailed(loop, at: now, lastAck: lastAck)
        case .renewingSession:
            return []
        }
    }

    private mutating func sessionRenewed(_ renewal: Renewal, at now: ContinuousClock.Instant, lastAck: ContinuousClock.Instant) -> [Effect] {
        guard case .connecting(.renewingSession(var loop, let refusal)) = phase else { return [] }
        switch renewal {
        case .renewed:
            loop.attempts -= 1
            return nextAttempt(loop, at: now, lastAck: lastAck, waitingFirst: false)
        case .failed(let failure) where policy.refusalEnds && policy.attemptsPerLoss == nil:
            // The session cannot be kept: `listen` ends (exit 4).
            phase = .offline(failure)
            return [.fail(failure)]
        case .failed, .unchanged:
            // The same token still good over REST: chat's refusal stands.
            if policy.refusalEnds {
                guard policy.attemptsPerLoss != nil else {
                    phase = .offline(refusal)
                    return [.fail(refusal)]
                }
                return giveUp(refusal, attempts: loop.attempts)
            }
            loop.lastFailure = refusal
            return attemptFailed(loop, at: now, lastAck: lastAck)
        }
    }

    /// After a failed attempt: a command that would end on a session that cannot be kept
    /// learns it now, then the loop goes on.
    private mutating func attemptFailed(_ loop: Reconnect, at now: ContinuousClock.Instant, lastAck: ContinuousClock.Instant) -> [Effect] {
        let upkeep: [Effect] = everConnected && policy.refusalEnds ? [.keepSessionAlive] : []
        return upkeep + nextAttempt(loop, at: now, lastAck: lastAck)
    }

    /// The top of the reconnect loop: give up (the policy's attempts, or nothing acknowledged
    /// for too long), stop (the deadline comes first), or wait the backoff's delay.
    private mutating func nextAttempt(_ loop: Reconnect, at now: ContinuousClock.Instant, lastAck: ContinuousClock.Instant,
                                      waitingFirst: Bool = true) -> [Effect] {
        guard !isStopped else {
            phase = .offline(loop.lastFailure)
            return []
        }
        if let limit = policy.attemptsPerLoss, loop.attempts >= limit { return giveUp(loop.lastFailure, attempts: loop.attempts) }
        if let limit = policy.quietLimit, now - lastAck >= .milliseconds(Int64(limit * 1000)) {
            return giveUp(loop.lastFailure, attempts: loop.attempts)
        }
        guard waitingFirst else {
            phase = .connecting(.again(Reconnect(attempts: loop.attempts + 1, lastFailure: loop.lastFailure)))
            return [.connect]
        }
        let ceiling = policy.backoff.currentCeiling
        let wait = policy.backoff.nextDelay(using: &random)
        let until = now + .milliseconds(Int64(wait * 1000))
        if let deadline, until >= deadline {
            isStopped = true
            phase = .offline(loop.lastFailure)
            return []
        }
        phase = .waiting(until: until, loop)
        return [.tell(.connection(.retrying(seconds: wait, ceiling: ceiling, after: loop.lastFailure))), .wait(seconds: wait)]
    }

    /// No more attempts: what waits for the reconnect goes back to the outbox.
    private mutating func giveUp(_ failure: Failure?, attempts: Int) -> [Effect] {
        let last = failure ?? Failure(.temporary, "the connection could not be made again")
        let reason = Failure(last.kind, "\(last.message); gave up reconnecting after \(attempts) attempts", hint: last.hint)
        phase = .offline(reason)
        return [.giveUp(reason), .tell(.connection(.gaveUp(reason))), .reportOutbox]
    }

    private mutating func noteSessionFailure(_ failure: Failure) -> [Effect] {
        defer { sessionKeepFailing = true }
        return sessionKeepFailing ? [] : [.tell(.notice(.failed(.keepSessionAlive, failure)))]
    }
}
