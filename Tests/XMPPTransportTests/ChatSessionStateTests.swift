import Testing
import XMPPTransport

@Suite("ChatSessionState transitions")
struct ChatSessionStateTests {
    @Test func happyPathConnectThenDisconnect() {
        var s = ChatSessionState()
        #expect(s.phase == .disconnected)
        #expect(s.handle(.connectRequested) == .startConnect)
        #expect(s.phase == .connecting)
        #expect(s.handle(.sessionEstablished) == .sendInitialPresence)
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
}
