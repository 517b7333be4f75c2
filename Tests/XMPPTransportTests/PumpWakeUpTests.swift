import Foundation
import Testing
import TestSupport
import XMPPTransport
import TestSupport

/// The loop owner waits in `pump(timeout:until:)`; work posted from another thread
/// must be noticed within a slice, not after the whole timeout.
@Suite("pump wake-up")
struct PumpWakeUpTests {
    @Test func postedWorkEndsThePumpWithinASlice() async {
        let mailbox = CommandMailbox<String>()
        let waited = await onOwnThread { () -> (Double, [String]) in
            let connection = XMPPConnection()
            Thread.detachNewThread {
                // Deliberate: the pump must already be waiting when the work arrives (no signal for that).
                usleep(100_000)
                mailbox.post("send")
            }
            let start = ContinuousClock.now
            connection.pump(timeout: 5, until: { mailbox.hasPending })
            return (seconds(since: start), mailbox.drain())
        }
        #expect(waited.1 == ["send"])
        #expect(waited.0 >= 0.09 && waited.0 < 0.5, "pump returned after \(waited.0) s")
    }

    @Test func pumpWithoutUntilWaitsItsTimeoutAndZeroDoesNotBlock() async {
        let (full, zero) = await onOwnThread { () -> (Double, Double) in
            let connection = XMPPConnection()
            var start = ContinuousClock.now
            connection.pump(timeout: 0.2)
            let full = seconds(since: start)
            start = .now
            connection.pump(timeout: 0)
            return (full, seconds(since: start))
        }
        #expect(full >= 0.19 && full < 0.6)
        #expect(zero < 0.05)
    }

    @Test func sendingWhileDisconnectedThrowsDisconnected() async {
        let kind = await onOwnThread { () -> XMPPError.Kind? in
            let connection = XMPPConnection()
            let message = OutgoingChatMessage(id: connection.makeMessageID(), kind: .chat,
                                              to: .user(1, appID: 2, domain: "localhost"), body: "x", dialogID: "d")
            do throws(XMPPError) { try connection.send(message); return nil } catch { return error.kind }
        }
        #expect(kind == .disconnected)
    }
}
