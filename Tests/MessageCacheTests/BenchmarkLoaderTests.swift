import Testing
import Foundation
import BenchmarkData
import TestSupport
@testable import MessageCache

@Suite("BenchmarkData: the bench's synthetic history")
struct BenchmarkLoaderTests {
    @Test func populatesDeterministically() throws {
        let fixture = try CacheFixture()
        let cache = try fixture.open()
        #expect(try SyntheticHistory(dialogs: 5, messagesPerDialog: 40).load(into: cache) == 200)
        #expect(try cache.messageCount() == 200)
        let dialogs = try cache.dialogs()
        #expect(dialogs.count == 5)
        #expect(dialogs.first?.id == SyntheticHistory.dialogID(4))  // latest last message
        let history = try cache.history(dialogID: SyntheticHistory.dialogID(0), limit: 50)
        #expect(history.count == 40)
        #expect(history.last?.dateSent == 1_600_000_000 + 39 * 60)
        #expect(try !cache.search("hello").isEmpty)
        // Same arguments again: ids are stable, nothing is duplicated.
        #expect(try SyntheticHistory(dialogs: 5, messagesPerDialog: 40).load(into: cache) == 0)
        #expect(try cache.messageCount() == 200)
        // The index trigger is back: a message stored afterwards is searchable.
        try cache.upsertMessages([message(1, dialog: SyntheticHistory.dialogID(0), date: 1, text: "quokka")])
        #expect(try cache.search("quokka").count == 1)
        #expect(try cache.search("hello", dialogID: SyntheticHistory.dialogID(3)).allSatisfy {
            $0.message.dialogID == SyntheticHistory.dialogID(3)
        })
        #expect(try cache.database.queryFirst("PRAGMA integrity_check") { $0.string(0) } == "ok")
        #expect(try cache.database.queryFirst("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')") { _ in 1 } == nil)
    }

    /// Timings for the report; run with CHATCTL_CACHE_BENCH=1 (optionally
    /// CHATCTL_CACHE_BENCH_PATH=/dir/for/file). Measures, asserts nothing about speed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CHATCTL_CACHE_BENCH"] != nil))
    func timings() throws {
        let directory = try TemporaryDirectory()
        let path = (ProcessInfo.processInfo.environment["CHATCTL_CACHE_BENCH_PATH"] ?? directory.path) + "/bench.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        let clock = ContinuousClock()
        let cache = try ChatCache(path: path)
        let load = try clock.measure { try SyntheticHistory(dialogs: 1000, messagesPerDialog: 1000).load(into: cache) }
        print("BENCH populate 1000 dialogs x 1000 messages: \(load)")
        try cache.close()

        func best(_ label: String, _ body: () throws -> Void) rethrows {
            var times: [Duration] = []
            for _ in 0..<7 { times.append(try clock.measure(body)) }
            print("BENCH \(label): best \(times.min()!) median \(times.sorted()[3])")
        }
        try best("open (migrated)") { try ChatCache(path: path).close() }
        let warm = try ChatCache(path: path)
        try best("dialogs (all 1000)") { _ = try warm.dialogs() }
        try best("history limit 50") { _ = try warm.history(dialogID: SyntheticHistory.dialogID(500), limit: 50) }
        try best("open + history limit 50") {
            let c = try ChatCache(path: path)
            _ = try c.history(dialogID: SyntheticHistory.dialogID(501), limit: 50)
        }
        for query in ["zeta0042", "hello", "deploy outage", "zeta00a1 OR zeta0b00", "\"deploy outage\""] {
            var hits = 0
            try best("search \(query) limit 20") { hits = try warm.search(query, limit: 20).count }
            print("BENCH   hits \(hits)")
        }
        try best("search hello in one dialog") {
            _ = try warm.search("hello", dialogID: SyntheticHistory.dialogID(7), limit: 20)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("BENCH file size \(size / 1_000_000) MB")
    }
}
