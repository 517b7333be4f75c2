import Testing
@testable import MessageCache
import SQLiteStore
import ChatIdentifiers

/// The chat view's drafts, one a dialog, kept across runs until sent or emptied.
@Suite("MessageCache: drafts")
struct DraftTests {
    let fixture: CacheFixture
    init() throws { fixture = try CacheFixture() }

    @Test func aDraftIsKeptChangedAndGoneOnceEmptyAcrossOpenings() throws {
        let d1 = dialogID(1), d2 = dialogID(2)
        do {
            let cache = try fixture.open()
            #expect(try cache.drafts().isEmpty)
            try cache.keepDraft(CachedDraft(dialogID: d1, text: "what about the db", cursor: 4), at: 10)
            try cache.keepDraft(CachedDraft(dialogID: d2, text: "line one\nline two", cursor: 17), at: 10)
            try cache.keepDraft(CachedDraft(dialogID: d1, text: "what about the db migration", cursor: 27), at: 11)
        }
        let cache = try fixture.open()
        #expect(try cache.drafts() == [CachedDraft(dialogID: d1, text: "what about the db migration", cursor: 27),
                                       CachedDraft(dialogID: d2, text: "line one\nline two", cursor: 17)])
        try cache.keepDraft(CachedDraft(dialogID: d1, text: "", cursor: 0), at: 12)
        #expect(try cache.drafts().map(\.dialogID) == [d2], "sent or emptied: no draft")
    }

    @Test func anOldCacheGainsTheTableEmpty() throws {
        do {
            let db = try Database(path: fixture.path)
            try Migrator(Array(CacheSchema.migrator.migrations.prefix(8))).migrate(db)
            try db.close()
        }
        let cache = try fixture.open()
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
        #expect(try cache.drafts().isEmpty)
    }
}
