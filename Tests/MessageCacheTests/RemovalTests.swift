import Testing
import MessageCache
import ChatIdentifiers

/// The cache follows edits and deletions: what the server no longer has, search no longer finds.
@Suite("MessageCache: edits and removals")
struct RemovalTests {
    let d1 = dialogID(1)
    let d2 = dialogID(2)

    func filled() throws -> ChatCache {
        let cache = try CacheFixture().open()
        try cache.upsertDialogs([dialog(1, last: 3), dialog(2, last: 4)])
        try cache.upsertMessages([
            message(1, dialog: d1, date: 1, text: "the deploy is done"),
            message(2, dialog: d1, date: 2, text: "deploy again"),
            message(3, dialog: d2, date: 3, text: "deploy elsewhere"),
        ])
        try cache.advanceLastSyncedDateSent(2, dialogID: d1)
        return cache
    }

    @Test func removedMessagesLeaveHistoryAndSearch() throws {
        let cache = try filled()
        #expect(try cache.removeMessages(ids: [hexID(2, prefix: "e"), hexID(99, prefix: "e")]) == 1)
        #expect(try cache.history(dialogID: d1).map(\.id) == [hexID(1, prefix: "e")])
        #expect(try cache.search("again").isEmpty)
        #expect(try cache.search("deploy").count == 2)
        #expect(try cache.removeMessages(ids: []) == 0)
    }

    @Test func anEditedTextIsWhatSearchFinds() throws {
        let cache = try filled()
        var edited = message(1, dialog: d1, date: 1, text: "the release is done")
        edited.rawJSON = #"{"_id":"\#(edited.id)","message":"the release is done","updated_at":"later"}"#
        #expect(try cache.upsertMessages([edited]) == 0)
        #expect(try cache.search("release").map(\.message.id) == [edited.id])
        #expect(try cache.search("deploy").map(\.message.id).contains(edited.id) == false)
    }

    @Test func aRemovedDialogTakesItsMessagesAndCursorButNotTheOutbox() throws {
        let cache = try filled()
        _ = try cache.enqueue(dialogID: d1, text: "unsent words", clientMessageID: hexID(7, prefix: "c"), createdAt: 5, owner: 1)
        #expect(try cache.removeDialog(id: d1))
        #expect(try cache.dialog(id: d1) == nil)
        #expect(try cache.dialogs().map(\.id) == [d2])
        #expect(try cache.messageCount(dialogID: d1) == 0)
        #expect(try cache.search("deploy").map(\.message.dialogID) == [d2])
        #expect(try cache.lastSyncedDateSent(dialogID: d1) == nil)
        #expect(try cache.pending().map(\.text) == ["unsent words"])
        #expect(try cache.removeDialog(id: d1) == false)
    }
}
