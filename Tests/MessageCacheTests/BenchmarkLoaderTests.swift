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
}
