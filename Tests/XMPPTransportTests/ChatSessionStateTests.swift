import Testing
import XMPPTransport

@Suite("ChatSessionState transitions")
struct ChatSessionStateTests {
    @Test func happyPathConnectThenDisconnect() {
        var s = ChatSessionState()
        #expect(s.phase == .disconnected)
        #expect(s.handle(.connectRequested) == .startConnect)
        #expect(s.phase == .connecting)
        #expect(s.handle(.sessionEstablished) == .startSession(carbonsRequestID: "chatctl-carbons-1"))
        #expect(s.phase == .connected)
        #expect(s.handle(.disconnectRequested) == .closeStream)
        #expect(s.phase == .disconnecting)
        #expect(s.handle(.streamClosed(failure: nil)) == .reportDisconnected)
        #expect(s.phase == .disconnected)
    }

    @Test func alreadyConnectingAndAlreadyConnectedAreNotErrors() {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        #expect(s.handle(.connectRequested) == ChatSessionState.Action.none)
        #expect(s.phase == .connecting)
        _ = s.handle(.sessionEstablished)
        #expect(s.handle(.connectRequested) == ChatSessionState.Action.none)
        #expect(s.phase == .connected)
    }

    @Test func deadlineWhileConnectingAbortsWithTimedOut() {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        #expect(s.handle(.deadlinePassed) == .abortConnect(.timedOut))
        #expect(s.phase == .disconnected)
        // A late close from the aborted socket changes nothing.
        #expect(s.handle(.streamClosed(failure: .cannotConnect)) == ChatSessionState.Action.none)
        #expect(s.handle(.sessionEstablished) == ChatSessionState.Action.none)
        #expect(s.phase == .disconnected)
    }

    @Test(arguments: [XMPPError.Kind.cannotConnect, .tlsFailed, .notAuthorized, .plaintextRefused, .streamError("conflict")])
    func failureWhileConnectingIsReported(_ kind: XMPPError.Kind) {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        #expect(s.handle(.streamClosed(failure: kind)) == .reportConnectFailure(kind))
        #expect(s.phase == .disconnected)
        #expect(s.handle(.connectRequested) == .startConnect, "can retry after a failure")
    }

    @Test func closeWithoutEvidenceWhileConnectingIsCannotConnect() {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        #expect(s.handle(.streamClosed(failure: nil)) == .reportConnectFailure(.cannotConnect))
    }

    @Test func unexpectedCloseWhenConnectedIsConnectionLost() {
        var s = ChatSessionState(phase: .connected)
        #expect(s.handle(.streamClosed(failure: .streamError("system-shutdown"))) == .reportConnectionLost(.streamError("system-shutdown")))
        #expect(s.phase == .disconnected)
        var t = ChatSessionState(phase: .connected)
        #expect(t.handle(.streamClosed(failure: nil)) == .reportConnectionLost(.disconnected))
    }

    /// Suspect: a reconnect's session cut while its first ping (the ack
    /// barrier) and carbons are unanswered. The cut is a loss like any other, nothing of
    /// the first session lingers, and the keep-alive is not left watching a dead session.
    @Test func aCutBeforeAReconnectsFirstPingIsAnsweredIsConnectionLost() {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        _ = s.handle(.sessionEstablished)
        _ = s.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        #expect(s.handle(.streamClosed(failure: nil)) == .reportConnectionLost(.disconnected))

        #expect(s.handle(.connectRequested) == .startConnect)
        #expect(s.carbons == .notRequested, "the first session's carbons do not carry over")
        guard case .startSession = s.handle(.sessionEstablished) else { Issue.record("no session start"); return }
        _ = s.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 10))
        guard case .sendPing(let barrier) = s.handle(.barrierRequested) else { Issue.record("no barrier ping"); return }
        _ = s.handle(.barrierQueued(id: barrier, sequence: 3))
        #expect(s.handle(.streamClosed(failure: nil)) == .reportConnectionLost(.disconnected))
        #expect(s.phase == .disconnected)
        #expect(s.handle(.tick(now: 200)) == ChatSessionState.Action.none, "no keep-alive on a closed session")

        // The barrier's reply never counts for the next session.
        _ = s.handle(.connectRequested)
        _ = s.handle(.sessionEstablished)
        #expect(s.handle(.iqReceived(type: "result", id: barrier, from: "localhost", isPing: false)) == ChatSessionState.Action.none)
    }

    @Test func disconnectIsIdempotentAndDeadlineForcesIt() {
        var s = ChatSessionState()
        #expect(s.handle(.disconnectRequested) == ChatSessionState.Action.none)
        s = ChatSessionState(phase: .connected)
        #expect(s.handle(.disconnectRequested) == .closeStream)
        #expect(s.handle(.disconnectRequested) == ChatSessionState.Action.none)
        #expect(s.handle(.deadlinePassed) == .reportDisconnected)
        #expect(s.phase == .disconnected)
    }

    @Test func disconnectWhileConnectingAbortsTheAttempt() {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        #expect(s.handle(.disconnectRequested) == .abortConnect(.disconnected))
        #expect(s.phase == .disconnected)
    }

    /// Carbons (XEP-0280) are asked for as the session starts, as the SDKs do; the answer
    /// to that iq, and only that one, says whether they came on. A fresh connect asks again.
    @Test func carbonsAreRequestedAtSessionStartAndTheAnswerIsRecorded() {
        var s = ChatSessionState()
        #expect(s.carbons == .notRequested)
        _ = s.handle(.connectRequested)
        guard case .startSession(let id) = s.handle(.sessionEstablished) else { Issue.record("no session start"); return }
        #expect(s.carbons == .requested(id: id))
        #expect(s.handle(.iqReceived(type: "result", id: "someone-else", from: nil, isPing: false)) == ChatSessionState.Action.none)
        #expect(s.carbons == .requested(id: id), "another iq's answer changes nothing")
        #expect(s.handle(.iqReceived(type: "result", id: id, from: "localhost", isPing: false)) == ChatSessionState.Action.none)
        #expect(s.carbons == .enabled)

        _ = s.handle(.streamClosed(failure: nil))
        _ = s.handle(.connectRequested)
        #expect(s.carbons == .notRequested)
        guard case .startSession(let second) = s.handle(.sessionEstablished) else { Issue.record("no session start"); return }
        #expect(second != id, "each request has its own id")
        _ = s.handle(.iqReceived(type: "error", id: second, from: nil, isPing: false))
        #expect(s.carbons == .refused, "a server without carbons is not a failure, just noted")
        #expect(s.phase == .connected)
    }
}
