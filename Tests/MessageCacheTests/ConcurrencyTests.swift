import Testing
@testable import MessageCache
import ChatIdentifiers

@Suite("MessageCache: many connections at once")
struct ConcurrencyTests {
    @Test func eightConnectionsWritingAtOnceLoseNothing() throws {
        let fixture = try CacheFixture()
        let path = fixture.path
        let threads = 8, writes = 200
        let failures = Failures()
        // Every thread opens the brand-new file itself, so the first-open
        // migration races too.
        onThreads(threads) { t in
            do {
                let cache = try ChatCache(path: path)
                let d = dialogID(t)
                for i in 0..<writes {
                    let n = t * 10_000 + i
                    try cache.upsertMessages([message(n, dialog: d, date: i, text: "thread \(t) write \(i)")])
                    if i % 10 == 0 {
                        try cache.enqueue(dialogID: d, text: "q", clientMessageID: hexID(n, prefix: "c"), createdAt: i)
                        try cache.advanceLastSyncedDateSent(i, dialogID: d)
                        _ = try cache.history(dialogID: d, limit: 5)
                    }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all == [])
        let cache = try ChatCache(path: path)
        #expect(try cache.messageCount() == threads * writes)
        for t in 0..<threads {
            let d = dialogID(t)
            let history = try cache.history(dialogID: d, limit: 1000)
            #expect(history.map(\.dateSent) == Array(0..<writes))
            #expect(try cache.lastSyncedDateSent(dialogID: d) == writes - 10)
        }
        #expect(try cache.pending().count == threads * writes / 10)
        #expect(try cache.search("write").count == 20)  // default limit; the index is intact
        #expect(try cache.database.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
    }

    @Test func aLongReadDoesNotBlockWriters() throws {
        let fixture = try CacheFixture()
        let reader = try fixture.open()
        let d = dialogID(1)
        try reader.upsertMessages((0..<10).map { message($0, dialog: d, date: $0) })
        // An open read transaction (WAL snapshot) on one connection...
        try reader.database.execute("BEGIN")
        #expect(try reader.history(dialogID: d, limit: 100).count == 10)
        // ...while another connection writes and commits without waiting.
        let writer = try fixture.open()
        let start = ContinuousClock.now
        try writer.upsertMessages((10..<20).map { message($0, dialog: d, date: $0) })
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(try reader.history(dialogID: d, limit: 100).count == 10)  // still its snapshot
        try reader.database.execute("COMMIT")
        #expect(try reader.history(dialogID: d, limit: 100).count == 20)
    }
}
