import Testing
@testable import MessageCache
import SQLiteStore
import ChatIdentifiers

/// The muted flag of a dialog (docs/protocol.md §5, "Notification settings"): its migration,
/// and that only muting changes it, never the server's dialog object.
@Suite("MessageCache: muted dialogs")
struct MutedDialogTests {
    let fixture: CacheFixture
    init() throws { fixture = try CacheFixture() }

    @Test func anOldCacheOpensAndItsDialogsGainTheFlagUnmuted() throws {
        let d1 = dialog(1, last: 50)
        do {
            // A cache as version 4 left it, with one dialog.
            let db = try Database(path: fixture.path)
            try Migrator(Array(CacheSchema.migrator.migrations.prefix(4))).migrate(db)
            try db.run("""
                INSERT INTO dialogs (id, type, name, occupant_ids, last_message_date_sent, unread_count, updated_at, raw_json)
                VALUES (?, 2, ?, '1,2', 50, 1, 100, ?)
                """, [.text(d1.id.rawValue), .text(d1.name), .text(d1.rawJSON)])
            try db.close()
        }
        let cache = try fixture.open()
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
        let columns = try cache.database.query("SELECT name FROM pragma_table_info('dialogs')") { $0.string(0) ?? "" }
        #expect(columns.contains("muted"))
        let read = try #require(try cache.dialog(id: d1.id))
        #expect(read.muted == false && read.name == d1.name && read.rawJSON == d1.rawJSON)
        #expect(try cache.setDialogMuted(id: d1.id, true))
        #expect(try cache.dialog(id: d1.id)?.muted == true)
    }

    @Test func muteSticksThroughEveryReadAndThroughUpserts() throws {
        let cache = try fixture.open()
        let group = dialog(1, name: "ops", last: 50), peer = dialog(2, type: .private, occupants: [1, 7], last: 40)
        try cache.upsertDialogs([group, peer])
        #expect(try cache.setDialogMuted(id: group.id, true))
        #expect(try cache.setDialogMuted(id: peer.id, true))
        #expect(try cache.dialogs().map(\.muted) == [true, true])
        #expect(try cache.dialogs(withRawJSON: false).map(\.muted) == [true, true], "the table's columns too")
        #expect(try cache.dialogs(named: "ops").first?.muted == true)
        #expect(try cache.privateDialog(withUserID: 7)?.muted == true)
        // The server's object says nothing of it: a newer copy of the dialog keeps the flag.
        var newer = dialog(1, name: "ops renamed", last: 60, updatedAt: 200)
        newer.muted = false
        try cache.upsertDialogs([newer])
        let read = try #require(try cache.dialog(id: group.id))
        #expect(read.name == "ops renamed" && read.muted)
        #expect(try cache.setDialogMuted(id: group.id, false))
        #expect(try cache.dialog(id: group.id)?.muted == false)
        #expect(try cache.dialog(id: peer.id)?.muted == true, "one dialog's flag only")
    }

    /// What the chat engine waits for: the first end of a mute for a while, not of one
    /// until unmuted, and none once it is unmuted.
    @Test func theNextMuteEndIsTheFirstOfTheTimedOnes() throws {
        let cache = try fixture.open()
        let a = dialog(1, last: 50), b = dialog(2, last: 40), c = dialog(3, last: 30)
        try cache.upsertDialogs([a, b, c])
        #expect(try cache.nextMuteEnd() == nil)
        try cache.setDialogMuted(id: a.id, until: 2_000)
        try cache.setDialogMuted(id: b.id, until: 1_000)
        try cache.setDialogMuted(id: c.id, until: nil)
        #expect(try cache.nextMuteEnd() == 1_000)
        try cache.setDialogMuted(id: b.id, false)
        #expect(try cache.nextMuteEnd() == 2_000)
    }

    @Test func anUncachedDialogIsNotRecorded() throws {
        let cache = try fixture.open()
        #expect(try cache.setDialogMuted(id: dialogID(9), true) == false)
        #expect(try cache.dialogs().isEmpty)
    }

    @Test func aForgottenDialogComesBackUnmuted() throws {
        let cache = try fixture.open()
        let group = dialog(1, last: 50)
        try cache.upsertDialogs([group])
        try cache.setDialogMuted(id: group.id, true)
        try cache.removeDialog(id: group.id)
        try cache.upsertDialogs([group])
        #expect(try cache.dialog(id: group.id)?.muted == false)
    }
}
