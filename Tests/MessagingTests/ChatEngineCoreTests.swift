import Testing
import Diagnostics
import MessageCache
import TestSupport
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// The chat engine's core driven with events alone, without a link, REST or a clock
/// (docs/architecture.md, "The chat engine"): its named phases, the reconnect loop's
/// decisions, and what a message handed on and the read marks ask for.
@Suite("Chat engine core")
struct ChatEngineCoreTests {
    typealias Core = ChatEngineCore
    static let t0 = ContinuousClock.now
    static let down = Failure(.temporary, "chat is down")
    static let refused = Failure(.authentication, "not authorized")

    static func core(_ policy: ReconnectPolicy, change: (inout ChatEngine.Settings) -> Void = { _ in }) -> Core {
        var settings = ChatEngine.Settings()
        settings.reconnect = policy
        change(&settings)
        return Core(settings: settings, now: t0, random: SplitMix(seed: 7))
    }

    /// The delays the policy's backoff gives with the core's generator, in order.
    static func delays(_ policy: ReconnectPolicy, count: Int) -> [Double] {
        var backoff = policy.backoff
        var random = SplitMix(seed: 7)
        return (0..<count).map { _ in backoff.nextDelay(using: &random) }
    }

    static func online(_ core: inout Core, at instant: ContinuousClock.Instant = t0) {
        _ = core.handle(.runStarted(deadline: nil))
        _ = core.handle(.connectSucceeded(at: instant, unixTime: 1_700_000_000))
    }

    static func message(_ id: String, dialogID: DialogID = "d1") -> CachedMessage {
        CachedMessage(sentID: id, dialogID: dialogID, sender: 2, recipient: 1, text: "hi", dateSent: 1_700_000_100)
    }

    // MARK: connecting

    @Test func aRunConnectsAndIsOnline() {
        var core = Self.core(.forever)
        #expect(core.phase == .offline(nil))
        #expect(core.handle(.runStarted(deadline: nil)) == [.tell(.connection(.connecting)), .connect])
        #expect(core.phase == .connecting(.first))
        let effects = core.handle(.connectSucceeded(at: Self.t0, unixTime: 1_700_000_000))
        #expect(core.phase == .online(since: Self.t0) && core.isOnline)
        #expect(effects == [.startSessionUpkeep, .tell(.connection(.connected(following: 0, again: false))), .resendStranded],
                "a listener: nothing of the view's")
    }

    @Test func theViewsConnectBringsItsDialogUpToDate() {
        var core = Self.core(.view) { $0.reportsDialogList = true }
        #expect(core.handle(.followed(dialogID: "d1", at: Self.t0)).isEmpty, "offline: nothing asked yet")
        _ = core.handle(.runStarted(deadline: nil))
        #expect(core.handle(.connectSucceeded(at: Self.t0, unixTime: 1_700_000_000)) == [
            .startSessionUpkeep, .tell(.connection(.connected(following: 0, again: false))), .resendStranded,
            .flushOutbox, .catchUp(dialogID: "d1"), .askPresence(dialogID: "d1"), .refreshUnreadCounts, .reportDialogs, .refreshNames,
        ])
    }

    @Test func aFirstConnectThatFailsEndsListenButTheViewWaits() {
        var listen = Self.core(.forever)
        _ = listen.handle(.runStarted(deadline: nil))
        #expect(listen.handle(.connectFailed(Self.down, at: Self.t0, lastAck: Self.t0)) == [.fail(Self.down)])
        #expect(listen.phase == .offline(Self.down))

        var view = Self.core(.view)
        _ = view.handle(.runStarted(deadline: nil))
        let delay = Self.delays(.view, count: 1)[0]
        #expect(view.handle(.connectFailed(Self.down, at: Self.t0, lastAck: Self.t0)) == [
            .tell(.connection(.retrying(seconds: delay, ceiling: 1, after: Self.down))), .wait(seconds: delay),
        ])
        #expect(view.phase == .waiting(until: Self.t0 + .milliseconds(Int64(delay * 1000)), Core.Reconnect(attempts: 1, lastFailure: Self.down)))
    }

    // MARK: losing the connection

    /// A drop is noted when the link tells it and taken up at the end of the turn: what was in
    /// flight is cut off, the loss told, then the loop waits the policy's delay and tries again.
    @Test func aDropWaitsThePolicysDelayThenConnectsAgain() {
        var core = Self.core(.forever)
        Self.online(&core)
        #expect(core.handle(.linkLost(Self.down)).isEmpty)
        #expect(core.pendingLoss == Self.down && core.isOnline, "online until the end of the turn")

        let lostAt = Self.t0 + .seconds(60)
        let delay = Self.delays(.forever, count: 1)[0]
        #expect(core.handle(.recover(Self.down, at: lostAt, lastAck: Self.t0)) == [
            .cutOff(Self.down), .tell(.connection(.lost(Self.down))), .reportOutbox,
            .tell(.connection(.retrying(seconds: delay, ceiling: 0.5, after: nil))), .wait(seconds: delay),
        ])
        #expect(core.pendingLoss == nil)
        #expect(core.phase == .waiting(until: lostAt + .milliseconds(Int64(delay * 1000)), Core.Reconnect(attempts: 0, lastFailure: nil)))

        #expect(core.handle(.waitEnded) == [.tell(.connection(.connecting)), .connect])
        #expect(core.phase == .connecting(.again(Core.Reconnect(attempts: 1, lastFailure: nil))))
        let back = lostAt + .seconds(1)
        #expect(core.handle(.connectSucceeded(at: back, unixTime: 1_700_000_100)) == [
            .tell(.connection(.connected(following: 0, again: true))), .resendStranded, .fillGaps,
        ])
        #expect(core.phase == .online(since: back))
    }

    @Test func aLossUnderNeverLeavesTheEngineOffline() {
        var core = Self.core(.never)
        Self.online(&core)
        #expect(core.handle(.recover(Self.down, at: Self.t0, lastAck: Self.t0)) == [
            .cutOff(Self.down), .tell(.connection(.lost(Self.down))), .reportOutbox,
        ])
        #expect(core.phase == .offline(Self.down))
    }

    /// A stream tries four times, then gives what waits back to the outbox with the reason.
    @Test func aStreamGivesUpAfterItsAttempts() {
        var core = Self.core(.stream)
        Self.online(&core)
        _ = core.handle(.recover(Self.down, at: Self.t0, lastAck: Self.t0))
        var last: [Core.Effect] = []
        for _ in 1...4 {
            _ = core.handle(.waitEnded)
            last = core.handle(.connectFailed(Self.down, at: Self.t0, lastAck: Self.t0))
        }
        let reason = Failure(.temporary, "chat is down; gave up reconnecting after 4 attempts")
        #expect(last == [.keepSessionAlive, .giveUp(reason), .tell(.connection(.gaveUp(reason))), .reportOutbox])
        #expect(core.phase == .offline(reason))
    }

    /// No attempt starts once the server has acknowledged nothing for the stream's quiet limit.
    @Test func aStreamWithNothingAcknowledgedForHalfAMinuteGivesUpAtOnce() {
        var core = Self.core(.stream)
        Self.online(&core)
        let effects = core.handle(.recover(Self.down, at: Self.t0 + .seconds(31), lastAck: Self.t0))
        let reason = Failure(.temporary, "the connection could not be made again; gave up reconnecting after 0 attempts")
        #expect(effects.suffix(3) == [.giveUp(reason), .tell(.connection(.gaveUp(reason))), .reportOutbox])
    }

    /// Chat refusing the token: the session is renewed and, under a new token, tried at once
    /// without counting; a refusal that stands ends `listen`.
    @Test func aRefusedTokenIsRenewedAndTriedAtOnce() {
        var core = Self.core(.forever)
        Self.online(&core)
        _ = core.handle(.recover(Self.down, at: Self.t0, lastAck: Self.t0))
        _ = core.handle(.waitEnded)
        #expect(core.handle(.connectFailed(Self.refused, at: Self.t0, lastAck: Self.t0)) == [.renewSession])
        #expect(core.phase == .connecting(.renewingSession(Core.Reconnect(attempts: 1, lastFailure: nil), refusal: Self.refused)))
        #expect(core.handle(.sessionRenewed(.renewed, at: Self.t0, lastAck: Self.t0)) == [.connect], "no wait, nothing told")
        #expect(core.phase == .connecting(.again(Core.Reconnect(attempts: 1, lastFailure: nil))))

        #expect(core.handle(.connectFailed(Self.refused, at: Self.t0, lastAck: Self.t0)) == [.renewSession])
        #expect(core.handle(.sessionRenewed(.unchanged, at: Self.t0, lastAck: Self.t0)) == [.fail(Self.refused)])
        #expect(core.phase == .offline(Self.refused))
    }

    @Test func stopEndsTheWaitAndTheRun() {
        var core = Self.core(.forever)
        Self.online(&core)
        _ = core.handle(.recover(Self.down, at: Self.t0, lastAck: Self.t0))
        #expect(!core.isDone(at: Self.t0))
        #expect(core.handle(.stopRequested).isEmpty)
        #expect(core.isStopped && core.handingEnded && core.isDone(at: Self.t0))
        #expect(core.handle(.waitEnded).isEmpty, "no attempt after a stop")
        #expect(core.phase == .offline(nil))
    }

    @Test func aWaitPastTheDeadlineStopsInstead() {
        var core = Self.core(.view)
        _ = core.handle(.runStarted(deadline: Self.t0))
        #expect(core.handle(.connectFailed(Self.down, at: Self.t0, lastAck: Self.t0)).isEmpty)
        #expect(core.isStopped && core.phase == .offline(Self.down))
    }

    // MARK: what arrives, and read marks

    @Test func aMessageHandedOnIsMarkedReceivedAndCountedAgainstTheLimit() {
        var core = Self.core(.forever) { $0.handLimit = 2 }
        let hello = Self.message("6b0db884edb3b3d9cddf1901")
        #expect(core.handle(.handed(hello)) == [.queueMarker(.received, hello)])
        #expect(core.wasHanded(hello.id) && core.handedCount == 1 && !core.handingEnded)
        #expect(core.lastSeen["d1"] == hello.dateSent, "a gap fill starts after it")
        _ = core.handle(.handed(Self.message("6b0db884edb3b3d9cddf1902")))
        #expect(core.handingEnded, "the hand limit")
    }

    /// `listen` on a terminal: a message handed on was seen; displayed at once, read over REST
    /// at the end of the turn; a mark that fails is told once and goes again after the interval.
    @Test func aMessageSeenIsDisplayedAndMarkedReadUntilThatGoes() {
        var core = Self.core(.forever) { $0.marksHeardRead = true; $0.readMarkRetrySeconds = 5 }
        let hello = Self.message("6b0db884edb3b3d9cddf1901")
        #expect(core.handle(.handed(hello)) == [.queueMarker(.received, hello), .queueMarker(.displayed, hello)])
        #expect(core.handle(.readMarksDue(at: Self.t0)).isEmpty, "offline: they wait")

        Self.online(&core)
        let read = Core.PendingRead(dialogID: "d1", messages: [hello])
        #expect(core.handle(.readMarksDue(at: Self.t0)) == [.markRead([read])])
        let busy = Failure(.temporary, "busy")
        #expect(core.handle(.readMarksSent(failed: [(read, busy)], at: Self.t0)) == [.tell(.notice(.failed(.markRead(count: 1), busy)))])
        #expect(core.handle(.readMarksDue(at: Self.t0 + .seconds(4))).isEmpty, "not before the retry interval")
        #expect(core.handle(.readMarksDue(at: Self.t0 + .seconds(5))) == [.markRead([read])])
        #expect(core.handle(.readMarksSent(failed: [(read, busy)], at: Self.t0 + .seconds(5))).isEmpty, "told once")
        #expect(core.handle(.readMarksDue(at: Self.t0 + .seconds(10))) == [.markRead([read])])
        #expect(core.handle(.readMarksSent(failed: [], at: Self.t0 + .seconds(10))).isEmpty)
        #expect(core.handle(.readMarksDue(at: Self.t0 + .seconds(20))).isEmpty, "done")
    }

    @Test func aFollowedDialogIsAskedLessOnceQuiet() {
        var core = Self.core(.view) { $0.followedRefreshSeconds = 2 }
        Self.online(&core)
        #expect(core.handle(.followed(dialogID: "d1", at: Self.t0)) == [.catchUp(dialogID: "d1"), .askPresence(dialogID: "d1")])
        #expect(core.followedAskIsDue(at: Self.t0 + .seconds(2)))
        _ = core.handle(.followedAsked(at: Self.t0 + .seconds(58)))
        #expect(!core.followedAskIsDue(at: Self.t0 + .seconds(61)), "quiet for a minute: not after 3 s")
        #expect(core.followedAskIsDue(at: Self.t0 + .seconds(73)), "but after 15")
        let busy = Failure(.temporary, "busy")
        #expect(core.handle(.followedAskEnded(busy)) == [.tell(.notice(.failed(.catchUp, busy)))])
        #expect(core.handle(.followedAskEnded(busy)).isEmpty, "a run of failures, told once")
        _ = core.handle(.unfollowed)
        #expect(!core.followedAskIsDue(at: Self.t0 + .seconds(600)))
    }
}
