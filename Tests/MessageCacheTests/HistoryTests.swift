import Testing
import MessageCache
import ChatIdentifiers

@Suite("MessageCache: history")
struct HistoryTests {
    let fixture: CacheFixture
    let d = dialogID(1)
    let other = dialogID(2)

    init() throws { fixture = try CacheFixture() }

    func filled() throws -> ChatCache {
        let cache = try fixture.open()
        // Dates 10, 20, ..., 100, inserted out of order; two messages share date 50.
        var messages = (1...10).map { message($0, dialog: d, date: $0 * 10) }
        messages.append(message(11, dialog: d, date: 50))
        messages.append(message(12, dialog: other, date: 55))
        try cache.upsertMessages(messages.shuffled())
        return cache
    }

    @Test func newestLimitReturnedOldestFirst() throws {
        let cache = try filled()
        #expect(try cache.history(dialogID: d, limit: 3).map(\.dateSent) == [80, 90, 100])
        #expect(try cache.history(dialogID: d, limit: 100).count == 11)
        #expect(try cache.history(dialogID: d, limit: 0).isEmpty)
        #expect(try cache.history(dialogID: other).map(\.dateSent) == [55])
    }

    @Test func tiesBrokenByID() throws {
        let cache = try filled()
        let page = try cache.history(dialogID: d, limit: 2, before: 60)
        #expect(page.map(\.id) == [hexID(5, prefix: "e"), hexID(11, prefix: "e")])
        #expect(try cache.history(dialogID: d, limit: 1, before: 60).map(\.id) == [hexID(11, prefix: "e")])
    }

    @Test func beforeAndSinceAreExclusive() throws {
        let cache = try filled()
        #expect(try cache.history(dialogID: d, limit: 2, before: 40).map(\.dateSent) == [20, 30])
        #expect(try cache.history(dialogID: d, limit: 50, since: 80).map(\.dateSent) == [90, 100])
        #expect(try cache.history(dialogID: d, limit: 50, before: 70, since: 30).map(\.dateSent) == [40, 50, 50, 60])
        #expect(try cache.history(dialogID: d, limit: 2, before: 70, since: 30).map(\.dateSent) == [50, 60])
    }

    @Test func queryUsesTheDialogDateIndexWithoutSorting() throws {
        let cache = try filled()
        for plan in [
            try cache.historyQueryPlan(dialogID: d),
            try cache.historyQueryPlan(dialogID: d, before: 50, since: 10),
        ] {
            let text = plan.joined(separator: "\n")
            #expect(text.contains("USING INDEX messages_by_dialog_date"), "\(text)")
            #expect(!text.contains("TEMP B-TREE"), "\(text)")
            #expect(!text.contains("SCAN"), "\(text)")
        }
    }
}
