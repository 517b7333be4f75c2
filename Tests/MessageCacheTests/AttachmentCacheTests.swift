import Foundation
import Testing
@testable import MessageCache
import SQLiteStore
import ChatIdentifiers

/// Attachments kept with their message (docs/protocol.md §8): the column, its
/// migration from the JSON already cached, search by name, and the outbox.
@Suite("MessageCache: attachments")
struct AttachmentCacheTests {
    let fixture: CacheFixture
    let d1 = dialogID(1)
    let d2 = dialogID(2)

    init() throws { fixture = try CacheFixture() }

    static let cat = #"[{"content-type":"image/jpeg","id":"uid-cat","name":"cat.jpg","size":1258291,"type":"image"}]"#

    func withAttachments(_ n: Int, dialog: DialogID, text: String = "[attachment]", _ json: String) -> CachedMessage {
        var m = message(n, dialog: dialog, date: 100 + n, text: text)
        m.attachmentsJSON = json
        return m
    }

    @Test func migrationThreeFillsTheColumnFromTheCachedJSONAndIndexesNames() throws {
        do {
            // A cache as version 2 left it, with the search index of the time.
            let db = try Database(path: fixture.path)
            try Migrator(Array(CacheSchema.migrator.migrations.prefix(2))).migrate(db)
            let rows: [(Int, String, String)] = [
                (1, "[attachment]", #"{"_id":"a","attachments":[{"type":"image","id":"u1","name":"holiday photo.jpg","size":"2048"}]}"#),
                (2, "two files", #"{"_id":"b","attachments":{"1":{"id":"u3","name":"second.pdf"},"0":{"id":"u2","name":"first.txt"}}}"#),
                (3, "no files", #"{"_id":"c","attachments":[]}"#),
                (4, "odd entries", #"{"_id":"d","attachments":[7,"x",{"id":"u4","name":42}]}"#),
                (5, "not json", "{broken"),
                (6, "plain deploy note", #"{"_id":"f"}"#),
            ]
            for (n, text, raw) in rows {
                try db.run("INSERT INTO messages (id, dialog_id, sender_id, date_sent, text, raw_json) VALUES (?, ?, 1, ?, ?, ?)",
                           [.text(hexID(n, prefix: "e")), .text(d1.rawValue), .integer(Int64(n)), .text(text), .text(raw)])
            }
            try db.close()
        }
        let cache = try fixture.open()
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
        let columns = try (1...6).map { try #require(try cache.message(id: hexID($0, prefix: "e"))).attachmentsJSON }
        #expect(columns[0] == #"[{"type":"image","id":"u1","name":"holiday photo.jpg","size":"2048"}]"#)
        #expect(columns[1] == #"[{"id":"u2","name":"first.txt"},{"id":"u3","name":"second.pdf"}]"#, "keyed \"0\", \"1\": in that order")
        #expect(columns[2] == "" && columns[4] == "" && columns[5] == "")
        #expect(columns[3] == #"[{"id":"u4","name":42}]"#, "entries that are not objects are dropped")
        // The index was made again: text as before, and names.
        #expect(try cache.search("deploy").map(\.message.id) == [hexID(6, prefix: "e")])
        #expect(try cache.search("holiday").map(\.message.id) == [hexID(1, prefix: "e")])
        #expect(try cache.search("second").map(\.message.id) == [hexID(2, prefix: "e")])
        #expect(try cache.search("42").map(\.message.id) == [hexID(4, prefix: "e")])
        // And kept in step from then on.
        try cache.upsertMessages([withAttachments(7, dialog: d1, Self.cat)])
        #expect(try cache.search("cat").map(\.message.id) == [hexID(7, prefix: "e")])
    }

    @Test func attachmentsRoundTripAndNamesAreSearchable() throws {
        let cache = try fixture.open()
        let m = withAttachments(1, dialog: d1, Self.cat)
        #expect(try cache.upsertMessages([m, message(2, dialog: d2, date: 5, text: "a cat sat")]) == 2)
        #expect(try cache.message(id: m.id) == m)
        #expect(try cache.history(dialogID: d1) == [m])
        let hits = try cache.search("cat")
        #expect(Set(hits.map(\.message.id)) == [m.id, hexID(2, prefix: "e")])
        #expect(hits.first { $0.message.id == m.id }?.message.attachmentsJSON == Self.cat)
        // A file name as typed: FTS5 would refuse the dot; it reads as the phrase it is.
        #expect(try cache.search("cat.jpg").map(\.message.id) == [m.id])
        #expect(try cache.search("cat.jpg", dialogID: d2).isEmpty)
        #expect(try cache.search("jpg").map(\.message.id) == [m.id])
    }

    /// An edit (the server's copy with new text, or the cached one changed) and markers keep the files.
    @Test func editsAndMarkersKeepTheAttachmentsAndTheIndexFollows() throws {
        let cache = try fixture.open()
        var m = withAttachments(1, dialog: d1, text: "look", Self.cat)
        try cache.upsertMessages([m])
        m.text = "look again"
        m.rawJSON = m.rawJSON.replacingOccurrences(of: "look", with: "look again")
        try cache.upsertMessages([m])
        _ = try cache.recordReceipts([MessageReceipt(messageID: m.id, userID: 2, kind: .read)])
        let cached = try #require(try cache.message(id: m.id))
        #expect(cached.attachmentsJSON == Self.cat && cached.text == "look again" && cached.readIDs == [2])
        #expect(try cache.search("again").map(\.message.id) == [m.id])
        #expect(try cache.search("cat").map(\.message.id) == [m.id])

        // The server's copy names another file: the index forgets the old name.
        m.attachmentsJSON = #"[{"id":"u9","name":"dog.png","type":"image"}]"#
        try cache.upsertMessages([m])
        #expect(try cache.search("cat").isEmpty)
        #expect(try cache.search("dog").map(\.message.id) == [m.id])
        try cache.removeMessages(ids: [m.id])
        #expect(try cache.search("dog").isEmpty)
    }

    @Test func aBulkImportIndexesNames() throws {
        let cache = try fixture.open()
        try cache.importMessages { batch in
            try batch.add(withAttachments(1, dialog: d1, Self.cat))
            try batch.add(message(2, dialog: d1, date: 3, text: "words"))
        }
        #expect(try cache.search("cat").map(\.message.id) == [hexID(1, prefix: "e")])
        #expect(try cache.search("words").map(\.message.id) == [hexID(2, prefix: "e")])
    }

    @Test func theOutboxKeepsWhatToAttach() throws {
        let cache = try fixture.open()
        try cache.enqueue(dialogID: d1, text: "[attachment]", clientMessageID: hexID(1, prefix: "c"), createdAt: 10, owner: 7,
                          attachmentsJSON: Self.cat)
        try cache.enqueue([(hexID(2, prefix: "c"), "two", #"[{"id":"u2"}]"#), (hexID(3, prefix: "c"), "three", "")],
                          dialogID: d1, createdAt: 11)
        try cache.enqueue([(clientMessageID: hexID(4, prefix: "c"), text: "four")], dialogID: d1, createdAt: 12)
        #expect(try cache.pending().map(\.attachmentsJSON) == [Self.cat, #"[{"id":"u2"}]"#, "", ""])
        let claimed = try cache.claim(limit: 1, owner: 7, now: 20, isAlive: { _ in true })
        #expect(claimed.first?.attachmentsJSON == Self.cat)
    }

    @Test(arguments: [
        ("cat.jpg", #""cat.jpg""#),
        ("report-2026.pdf OR notes", #""report-2026.pdf" OR notes"#),
        ("it's", #""it's""#),
        (#""cat.jpg" dog"#, #""cat.jpg" dog"#),
        ("photo* NOT cat.jpg", #"photo* NOT "cat.jpg""#),
        ("report-2026*", #""report-2026"*"#),
        ("text : cat", "text : cat"),
        ("- {text} : x", "- {text} : x"),
        ("deploy", "deploy"),
    ])
    func punctuatedWordsBecomePhrases(typed: String, query: String) throws {
        #expect(try SearchSyntax.fts5.ftsQuery(typed) == query)
    }
}
