import Diagnostics
import Testing
@testable import Messaging

/// An outbox flush's rounds, tallied into what the command says and how it exits.
@Suite struct OutboxFlushTallyTests {
    @Test func everythingDeliveredIsNoVerdict() {
        var report = ChatEngine.FlushReport()
        report.alreadyThere = 2
        let flush = OutboxFlush(report, finished: nil, delivered: 3, undelivered: 0, refused: 0)
        #expect(flush.delivered == 5 && flush.undelivered == 0 && flush.verdict == nil)
    }

    @Test func whatStillWaitsIsUndelivered() {
        var report = ChatEngine.FlushReport()
        report.notUploaded = 1
        let flush = OutboxFlush(report, finished: Failure(.temporary, "timed out"), delivered: 0, undelivered: 1, refused: 0)
        #expect(flush.verdict?.kind == .undelivered(2))
        #expect(flush.verdict?.message == "2 messages still not delivered (timed out)")
    }

    @Test func blankAndRefusedEntriesAreToldApart() {
        var refusal = Failure(.invalidInput, "not an occupant")
        refusal.isPermanent = true
        var report = ChatEngine.FlushReport()
        report.dropped = [Failure(.invalidInput, "a blank message was dropped"), refusal]
        let flush = OutboxFlush(report, finished: nil, delivered: 0, undelivered: 0, refused: 0)
        #expect(flush.blank.map(\.message) == ["a blank message was dropped"])
        #expect(flush.refusals.map(\.message) == ["not an occupant"] && flush.refused == 1)
        #expect(flush.verdict?.message == "the server refused 1 message, removed from the outbox")
    }
}
