import Diagnostics
import Testing
import MessageCache
import TestSupport
@testable import Messaging

/// What commands and the chat view read of the cache through the service.
@Suite struct CacheQueryTests {
    @Test func pagesOfCachedMessagesAroundAPosition() throws {
        let f = try ScriptedService()
        _ = try f.seed()
        let more = (6...8).map { CachedMessage(id: "m\($0 - 4)", dialogID: ScriptedService.dialogID, senderID: 2, dateSent: $0, text: "t", rawJSON: "{}") }
        try f.service.cache.upsertMessages(more)
        let after = try f.service.cachedMessages(dialogID: ScriptedService.dialogID, after: MessagePosition(dateSent: 6, id: "m2"), limit: 10)
        #expect(after.map(\.id) == ["m3", "m4"])
        let before = try f.service.cachedMessages(dialogID: ScriptedService.dialogID, before: MessagePosition(dateSent: 7, id: "m3"), limit: 1)
        #expect(before.map(\.id) == ["m2"])
        #expect(try f.service.cachedMessage(id: "m1")?.text == "helo wrold")
        #expect(try f.service.cachedMessage(id: "nope") == nil)
    }

    @Test func aDialogWithItsOccupantsNames() throws {
        let f = try ScriptedService()
        _ = try f.seed()
        try f.service.cache.upsertUsers([CachedUser(id: 2, login: "bob", fullName: "Bob B", rawJSON: "{}")])
        let named = try #require(f.service.namedDialog(id: ScriptedService.dialogID))
        #expect(named.dialog.name == "ops" && named.names == [2: "Bob B"])
        #expect(f.service.namedDialog(id: "unknown") == nil)
        #expect(f.service.cachedUser(id: 2)?.login == "bob")
    }

    @Test func theChatViewOpensADialogWithItsPageAndOutbox() throws {
        let f = try ScriptedService()
        _ = try f.seed()
        let queued = try f.service.enqueue("later", to: ScriptedService.dialogID, owner: 1)
        let opened = try #require(f.service.openedDialog(id: ScriptedService.dialogID, pageSize: 50))
        #expect(opened.messages.map(\.id) == ["m1"] && opened.pending.map(\.clientMessageID) == [queued])
        #expect(f.service.openedDialog(id: "unknown", pageSize: 50) == nil)
        #expect(f.service.dialogsOverview().dialogs.map(\.id) == [ScriptedService.dialogID])
    }

    @Test func newHistoryIsAskedFromTheSecondOfTheLastSync() throws {
        let f = try ScriptedService([reply(200, #"{"items":[]}"#)])
        _ = try f.seed()
        try f.service.cache.advanceLastSyncedDateSent(100, dialogID: ScriptedService.dialogID)
        #expect(try f.service.syncNewHistory(dialogID: ScriptedService.dialogID, limit: 10) == 0)
        #expect(f.transport.requests[0].url.contains("date_sent%5Bgt%5D=99"))
    }
}
