import Testing
@testable import MessageCache
import ChatIdentifiers

@Suite("MessageCache: bulk import")
struct ImportTests {
    let fixture: CacheFixture
    let d = dialogID(1)

    init() throws { fixture = try CacheFixture() }

    @Test func importedMessagesAreStoredOnceAndSearchable() throws {
        let cache = try fixture.open()
        try cache.upsertMessages([message(1, dialog: d, date: 1, text: "already here")])
        let added = try cache.importMessages { batch in
            for n in 1...50 { try batch.add(message(n, dialog: d, date: n, text: "walrus \(n)")) }
            #expect(batch.added == 49, "message 1 was cached before")
        }
        #expect(added == 49)
        #expect(try cache.messageCount() == 50)
        #expect(try cache.message(id: hexID(1, prefix: "e"))?.text == "already here", "a cached message is left as it is")
        #expect(try cache.search("walrus").count == 20)
        #expect(try cache.search("walrus", limit: 100).count == 49)
        // The per-row index trigger is back: a message stored afterwards is searchable.
        try cache.upsertMessages([message(99, dialog: d, date: 99, text: "quokka")])
        #expect(try cache.search("quokka").count == 1)
        #expect(try cache.database.queryFirst("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')") { _ in 1 } == nil)
    }

    @Test func aFailingImportStoresNothing() throws {
        struct Stop: Error {}
        let cache = try fixture.open()
        #expect(throws: MessageCacheError.self) {
            try cache.importMessages { batch in
                try batch.add(message(1, dialog: d, date: 1, text: "walrus"))
                throw Stop()
            }
        }
        #expect(try cache.messageCount() == 0)
        try cache.upsertMessages([message(2, dialog: d, date: 2, text: "walrus")])
        #expect(try cache.search("walrus").count == 1, "the index trigger survived the rollback")
    }
}
