import Testing
import Foundation
@testable import MessageCache
import SQLiteStore
import ChatIdentifiers

@Suite("MessageCache: schema, dialogs, users, messages")
struct ChatCacheTests {
    @Test func fileIsCreated0600WithWALAndSchema() throws {
        let fixture = try CacheFixture()
        let cache = try fixture.open()
        try cache.upsertUsers([CachedUser(id: 1, login: "a", rawJSON: "{}")])
        for file in [fixture.path, fixture.path + "-wal", fixture.path + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(file)")
        }
        #expect(try cache.database.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try CacheSchema.migrator.appliedMigrations(cache.database) == CacheSchema.migrator.migrations.map(\.name))
    }

    @Test func reopenDoesNotMigrateAgain() throws {
        let fixture = try CacheFixture()
        try fixture.open().close()
        let db = try Database(path: fixture.path)
        let before = try db.query("SELECT name, applied_at FROM schema_migrations") { "\($0.string(0)!)@\($0.int(1))" }
        #expect(try CacheSchema.migrator.migrate(db) == [])
        let cache = try fixture.open()
        #expect(try cache.database.query("SELECT name, applied_at FROM schema_migrations") { "\($0.string(0)!)@\($0.int(1))" } == before)
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
    }

    @Test func closeIsIdempotentAndUseAfterCloseThrows() throws {
        let cache = try CacheFixture().open()
        try cache.close()
        try cache.close()
        let error = try #require(throws: MessageCacheError.self) { _ = try cache.dialogs() }
        #expect(error.kind == .storage)
        #expect(error.underlying?.code == .misuse)
    }

    @Test func dialogsUpsertListFilterAndFind() throws {
        let cache = try CacheFixture().open()
        try cache.upsertDialogs([
            dialog(1, type: .group, name: "ops", last: 300),
            dialog(2, type: .private, name: "alice", occupants: [1, 42], last: 500),
            dialog(3, type: .publicGroup, name: "ops", last: nil),
            dialog(4, type: .group, name: "dev", last: 400),
        ])
        #expect(try cache.dialogs().map(\.name) == ["alice", "dev", "ops", "ops"])
        #expect(try cache.dialogs().last?.lastMessageDateSent == nil)
        #expect(try cache.dialogs(limit: 2).map(\.name) == ["alice", "dev"])
        #expect(try cache.dialogs(type: .group).map(\.name) == ["dev", "ops"])
        #expect(try cache.dialogs(named: "ops").map(\.type) == [.group, .publicGroup])
        #expect(try cache.dialogs(named: "OPS").isEmpty)
        #expect(try cache.privateDialog(withUserID: 42)?.name == "alice")
        #expect(try cache.privateDialog(withUserID: 7) == nil)
        let stored = try #require(try cache.dialog(id: dialogID(2)))
        #expect(stored == dialog(2, type: .private, name: "alice", occupants: [1, 42], last: 500))
        // For a table: every column the same, the JSON left out.
        var bare = stored
        bare.rawJSON = ""
        #expect(!stored.rawJSON.isEmpty)
        #expect(try cache.dialogs(withRawJSON: false).first == bare)
        #expect(try cache.dialogs(type: .group, withRawJSON: false).map(\.name) == ["dev", "ops"])

        // Update: same id stored once, new values win; an older copy does not overwrite.
        try cache.upsertDialogs([dialog(2, type: .private, name: "alice", occupants: [1, 43], last: 600, updatedAt: 200)])
        try cache.upsertDialogs([dialog(2, type: .private, name: "stale", occupants: [1, 42], last: 100, updatedAt: 150)])
        #expect(try cache.dialogs().count == 4)
        #expect(try cache.dialog(id: dialogID(2))?.lastMessageDateSent == 600)
        #expect(try cache.dialog(id: dialogID(2))?.name == "alice")
        #expect(try cache.privateDialog(withUserID: 42) == nil)
        #expect(try cache.privateDialog(withUserID: 43)?.occupantIDs == [1, 43])
        #expect(throws: MessageCacheError.self) { _ = try cache.dialogs(limit: -1) }
    }

    @Test func usersUpsertAndLookup() throws {
        let cache = try CacheFixture().open()
        try cache.upsertUsers([
            CachedUser(id: 1, login: "alice", fullName: "Alice A", rawJSON: #"{"id":1}"#),
            CachedUser(id: 2, login: "bob", fullName: nil, rawJSON: #"{"id":2}"#),
        ])
        try cache.upsertUsers([CachedUser(id: 1, login: "alice2", fullName: "Alice B", rawJSON: #"{"id":1,"v":2}"#)])
        #expect(try cache.user(id: 1) == CachedUser(id: 1, login: "alice2", fullName: "Alice B", rawJSON: #"{"id":1,"v":2}"#))
        #expect(try cache.user(login: "bob")?.id == 2)
        #expect(try cache.user(login: "alice") == nil)
        #expect(try cache.user(id: 3) == nil)
    }

    @Test func messageUpsertIsIdempotentByID() throws {
        let cache = try CacheFixture().open()
        let d = dialogID(1)
        let m = message(1, dialog: d, date: 100, text: "first version")
        #expect(try cache.upsertMessages([m, message(2, dialog: d, date: 101)]) == 2)
        #expect(try cache.upsertMessages([m]) == 0)
        #expect(try cache.upsertMessages([m, m]) == 0)
        #expect(try cache.messageCount() == 2)
        var edited = m
        edited.text = "second version"
        edited.rawJSON = #"{"edited":true}"#
        #expect(try cache.upsertMessages([edited]) == 0)
        #expect(try cache.messageCount() == 2)
        #expect(try cache.message(id: m.id) == edited)
        // The full-text index follows the edit.
        #expect(try cache.search("first").isEmpty)
        #expect(try cache.search("second").map(\.message.id) == [m.id])
    }

    /// A batch is stored as one message at a time would be (its new ones in one
    /// statement): each flagged new once, a copy already cached updated in place with
    /// receipts merged, a second copy in the same batch not stored twice, every message
    /// in the search index once, attachment names included.
    @Test func aBatchStoresAsOneAtATimeWould() throws {
        let cache = try CacheFixture().open()
        let d = dialogID(1)
        var known = message(1, dialog: d, date: 100, text: "known alpha", sender: 2)
        known.deliveredIDs = [2]
        try cache.upsertMessages([known])
        var again = known
        again.readIDs = [3]
        var attached = message(3, dialog: d, date: 102, text: "[attachment]")
        attached.attachmentsJSON = #"[{"type":"image","id":"u1","name":"cat.jpg"}]"#
        let batch = [message(2, dialog: d, date: 101, text: "fresh beta"), again, attached, message(2, dialog: d, date: 101, text: "fresh beta"),
                     message(4, dialog: d, date: 103, text: "fresh gamma")]
        #expect(try cache.upsertMessagesReportingNew(batch) == [true, false, true, false, true])
        #expect(try cache.messageCount() == 4)
        #expect(try cache.message(id: known.id)?.deliveredIDs == [2] && cache.message(id: known.id)?.readIDs == [3])
        #expect(try cache.search("fresh").map(\.message.id).sorted() == [hexID(2, prefix: "e"), hexID(4, prefix: "e")])
        #expect(try cache.search("alpha").map(\.message.id) == [known.id])
        #expect(try cache.search("cat.jpg").map(\.message.id) == [attached.id])
        #expect(try cache.history(dialogID: d, limit: 10).map(\.id) == [1, 2, 3, 4].map { hexID($0, prefix: "e") })
        #expect(try cache.upsertMessagesReportingNew(batch) == [false, false, false, false, false])
        #expect(try cache.search("fresh").count == 2, "the index holds each message once")
    }

    @Test func rawJSONIsKeptVerbatim() throws {
        let cache = try CacheFixture().open()
        let raw = #"{"_id":"aaaaaaaaaaaaaaaaaaaaaaaa", "message":"ünïcødé \"q\"\n", "custom_key":[1,{"x":null}]}"#
        let m = CachedMessage(id: "aaaaaaaaaaaaaaaaaaaaaaaa", dialogID: "d", senderID: 1, dateSent: 1, text: "ünïcødé", rawJSON: raw)
        try cache.upsertMessages([m])
        #expect(try cache.message(id: m.id)?.rawJSON == raw)
    }

    @Test func syncCursorsOnlyMoveForward() throws {
        let cache = try CacheFixture().open()
        let d = dialogID(1)
        #expect(try cache.lastSyncedDateSent(dialogID: d) == nil)
        try cache.advanceLastSyncedDateSent(200, dialogID: d)
        try cache.advanceLastSyncedDateSent(150, dialogID: d)
        #expect(try cache.lastSyncedDateSent(dialogID: d) == 200)
        #expect(try cache.lastSyncedDateSent(dialogID: dialogID(2)) == nil)
        #expect(try cache.dialogsUpdatedAtCursor() == nil)
        try cache.advanceDialogsUpdatedAtCursor(1_700_000_000)
        try cache.advanceDialogsUpdatedAtCursor(1_600_000_000)
        #expect(try cache.dialogsUpdatedAtCursor() == 1_700_000_000)
    }
}
