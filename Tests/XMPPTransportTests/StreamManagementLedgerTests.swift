import Testing
import XMPPTransport

@Suite("StreamManagementLedger")
struct StreamManagementLedgerTests {
    @Test func acksAdvanceInOrder() throws {
        var l = StreamManagementLedger()
        #expect(l.status == .pending)
        l.enabled()
        #expect(l.status == .enabled)
        let a = l.recordSent(), b = l.recordSent(), c = l.recordSent()
        #expect([a, b, c] == [1, 2, 3])
        #expect(!l.isAcknowledged(a))
        #expect(l.acknowledge(h: 2) == [1, 2])
        #expect(l.isAcknowledged(a) && l.isAcknowledged(b) && !l.isAcknowledged(c))
        #expect(l.acknowledge(h: 2) == [], "repeated h acknowledges nothing new")
        #expect(l.acknowledge(h: 3) == [3])
        #expect(l.isAcknowledged(c))
    }

    @Test func ackBeyondSentIsRejected() {
        var l = StreamManagementLedger()
        _ = l.recordSent()
        #expect(l.acknowledge(h: 5) == nil)
        #expect(l.acknowledgedCount == 0)
    }

    @Test func failedMeansUnavailable() {
        var l = StreamManagementLedger()
        l.failed()
        #expect(l.status == .unavailable)
    }
}
