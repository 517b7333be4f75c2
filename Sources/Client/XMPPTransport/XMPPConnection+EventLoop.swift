#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The event loop: runs libstrophe on the owning thread, routes what arrives,
/// carries out what the session state decides, and hands events to `onEvent`
/// outside of any libstrophe callback.
extension XMPPConnection {
    /// Runs libstrophe's event loop for about `timeout` seconds on this thread:
    /// flushes queued sends (first asking for an ack of anything unrequested, since
    /// the caller has stopped sending for now), delivers events to `onEvent`, answers
    /// server pings, keeps the connection alive. Always runs at least one iteration,
    /// so `pump(timeout: 0)` flushes and polls without waiting. With `until`, it waits
    /// in slices of `sliceMilliseconds` and returns as soon as `until()` is true after
    /// one (e.g. another thread posted work for this one).
    package func pump(timeout: Double, sliceMilliseconds: Int64 = 10, until: (() -> Bool)? = nil) {
        flushAcknowledgementRequest()
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        runOnce(milliseconds: 0)
        if let until {
            runLoop(until: deadline, sliceMilliseconds: sliceMilliseconds) { _ in until() }
        } else {
            runLoop(until: deadline) { _ in false }
        }
    }

    /// `xmpp_run_once` in slices until `done` or the deadline; always returns by the deadline.
    func runLoop(until deadline: ContinuousClock.Instant, sliceMilliseconds: Int64 = 50, _ done: (XMPPConnection) -> Bool) {
        while !done(self) {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return }
            let ms = min(sliceMilliseconds, max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            runOnce(milliseconds: ms)
        }
    }

    func emit(_ event: ChatEvent) { pendingEvents.append(event) }

    /// Hands queued events to `onEvent`; not re-entered if the handler itself runs the loop.
    func deliverEvents() {
        guard !deliveringEvents, !pendingEvents.isEmpty else { return }
        deliveringEvents = true
        defer { deliveringEvents = false }
        while !pendingEvents.isEmpty {
            var batch: [ChatEvent] = []
            swap(&batch, &pendingEvents)
            if let onEvent { for event in batch { onEvent(event) } }
        }
        onEventsDelivered?()
    }

    /// Every stanza the server sends (the one catch-all handler), inside `xmpp_run_once`.
    func handleStanza(_ element: StanzaElement) {
        stanzasHeard &+= 1
        _ = state.handle(.heard(now: monotonicNow))
        if element.namespace == Self.streamManagementNamespace {
            handleStreamManagement(element)
            return
        }
        switch element.name {
        case "message":
            if let event = ChatEvent.parse(element, receivedAt: Self.unixNow(), ownJID: boundJID.flatMap(ChatJID.init(parsing:))) {
                emit(event)
            }
        case "presence":
            if let presence = RoomPresence(element) {
                perform(state.handle(.roomPresence(presence)))
            } else if let presence = UserPresence(element) {
                emit(.presence(presence))
            } else if let subscription = SubscriptionPresence(element) {
                emit(.subscription(subscription))
            }
        case "iq":
            handleIQ(element)
        default:
            break
        }
    }

    /// Carries out what the session state decided about incoming traffic and time.
    /// Lifecycle and room actions are performed where they are asked for
    /// (connect, disconnect, join, leave), which wait for their outcome.
    func perform(_ action: ChatSessionState.Action) {
        switch action {
        case .sendPing(let id): sendPing(id: id)
        case .answerPing(let id, let to): answerPing(id: id, to: to)
        case .acknowledge(let sequence):
            let ids = tracker.acknowledge(h: sequence)
            if !ids.isEmpty { emit(.delivered(ids)) }
        case .abortSilentConnection(let timeout): abortSilentConnection(timeout: timeout)
        case .none, .startConnect, .startSession, .abortConnect, .closeStream, .reportConnectFailure,
             .reportConnectionLost, .reportDisconnected, .sendJoinPresence, .sendLeavePresence:
            break
        }
    }

    static func unixNow() -> Int { Int(Date().timeIntervalSince1970) }
}
