import Foundation
import Diagnostics
import Testing
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// A dialog as the managing tests need it.
extension ScriptedService {
    static let dialogID: DialogID = "6b0db884c4ca891d2141e1c9"
    static func dialogJSON(name: String = "ops", occupants: [Int] = [1, 2], updated: String = "2026-11-30T17:55:19Z") -> String {
        #"{"_id":"\#(dialogID)","type":2,"name":"\#(name)","user_id":1,"occupants_ids":\#(occupants),"updated_at":"\#(updated)"}"#
    }
    static let usersPage = #"{"items":[{"user":{"id":2,"login":"bob"}},{"user":{"id":3,"login":"cat"}}]}"#

    /// Caches the dialog and a message of it, as `dialogs` and `history` would have.
    func seed() throws -> CachedDialog {
        let dialog = CachedDialog(id: Self.dialogID, type: .group, name: "ops", occupantIDs: [1, 2], updatedAt: 1,
                                  rawJSON: Self.dialogJSON())
        try service.cache.upsertDialogs([dialog])
        try service.cache.upsertMessages([CachedMessage(id: "m1", dialogID: Self.dialogID, senderID: 1, dateSent: 5, text: "helo wrold",
                                                        rawJSON: #"{"_id":"m1","message":"helo wrold","sender_id":1}"#)])
        return dialog
    }
}

@Suite struct DialogManagingTests {
    @Test func aRenameIsCachedAsTheServerAnswered() throws {
        let f = try ScriptedService([reply(200, ScriptedService.dialogJSON(name: "ops2", updated: "2026-11-30T18:00:00Z")), reply(200, ScriptedService.usersPage)])
        let renamed = try f.service.renameDialog(try f.seed(), to: "ops2")
        #expect(renamed.name == "ops2")
        #expect(try f.service.cache.dialogs(named: "ops2").map(\.id) == [ScriptedService.dialogID])
        #expect(try f.service.cache.dialogs(named: "ops").isEmpty)
        #expect(try f.transport.bodyText(0) == #"{"name":"ops2"}"#)
    }

    @Test func aRefusalSaysWhatWasNotAllowedAndChangesNothing() throws {
        let f = try ScriptedService([reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)])
        let error = try #require(throws: Failure.self) { try f.service.renameDialog(try f.seed(), to: "mine") }
        #expect(error.kind == .failure)
        #expect(error.description == "not allowed to rename 'ops': You don't have appropriate permissions to perform this operation (only its owner can rename it)")
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID)?.name == "ops")
    }

    /// A 200 that is not a dialog: a failure (exit 1), and the cache keeps what it had.
    @Test func garbageFromTheServerIsAFailureThatChangesNothing() throws {
        let f = try ScriptedService([reply(200, "<html>oops</html>"), reply(200, #"{"items":"no"}"#)])
        let dialog = try f.seed()
        let renamed = try #require(throws: Failure.self) { try f.service.renameDialog(dialog, to: "ops2") }
        #expect(renamed.kind == .failure && renamed.message.hasPrefix("rename 'ops': unexpected answer from PUT "))
        let refreshed = try #require(throws: Failure.self) { try f.service.refreshDialog(dialog) }
        #expect(refreshed.kind == .failure)
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID)?.name == "ops")
    }

    @Test func aPrivateDialogIsNotRenamedAndNothingIsSent() throws {
        let f = try ScriptedService([])
        let dialog = CachedDialog(id: "p1", type: .private, name: "", occupantIDs: [1, 2], updatedAt: 1, rawJSON: "{}")
        let error = try #require(throws: Failure.self) { try f.service.renameDialog(dialog, to: "us") }
        #expect(error.kind == .invalidInput)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func anUnknownDialogIsBadInputAndForgotten() throws {
        let f = try ScriptedService([reply(404, #"{"errors":["The resource wasn't found"]}"#)])
        let error = try #require(throws: Failure.self) { try f.service.addOccupants([3], to: try f.seed()) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("is not one of your dialogs"))
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID) == nil)
    }

    @Test func refreshingADialogTheServerNoLongerListsForgetsIt() throws {
        let f = try ScriptedService([reply(200, #"{"items":[]}"#)])
        #expect(throws: Failure.self) { try f.service.refreshDialog(try f.seed()) }
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID) == nil)
        #expect(f.transport.requests[0].url.hasSuffix("&_id%5Bin%5D=\(ScriptedService.dialogID)"))
    }

    @Test func leavingPullsYourselfAndForgetsTheDialog() throws {
        let f = try ScriptedService([reply(200, ScriptedService.dialogJSON(occupants: [2])), reply(200, ScriptedService.usersPage)])
        try f.service.leaveDialog(try f.seed())
        #expect(try f.transport.bodyText(0) == #"{"pull_all":{"occupants_ids":[1]}}"#)
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID) == nil)
        #expect(try f.service.cache.message(id: "m1") == nil)
    }

    @Test(arguments: [
        ScriptedTransport.Reply.status(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#),
        .status(200, #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":["6b0db884c4ca891d2141e1c9"]}}"#),
    ])
    func deletingForEveryoneWhenNotTheOwnerIsRefusedEitherWay(answer: ScriptedTransport.Reply) throws {
        let f = try ScriptedService([answer])
        let error = try #require(throws: Failure.self) { try f.service.deleteDialog(try f.seed(), everyone: true) }
        #expect(error.kind == .failure)
        #expect(error.message.hasPrefix("not allowed to delete 'ops' for everyone"))
        #expect(f.transport.requests[0].url.hasSuffix("?force=1"))
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID) != nil)
    }

    @Test func aDeletedDialogLeavesTheCache() throws {
        let f = try ScriptedService([reply(200, "")])
        try f.service.deleteDialog(try f.seed(), everyone: false)
        #expect(f.transport.requests[0].method == .delete)
        #expect(try f.service.cache.dialog(id: ScriptedService.dialogID) == nil)
        #expect(try f.service.cache.search("wrold").isEmpty)
    }
}

@Suite struct MessageManagingTests {
    @Test func anEditIsReadBackAndSearchFindsTheNewText() throws {
        let fresh = #"{"items":[{"_id":"m1","chat_dialog_id":"\#(ScriptedService.dialogID)","message":"hello world","sender_id":1,"date_sent":5}]}"#
        let f = try ScriptedService([reply(200, ""), reply(200, fresh)])
        _ = try f.seed()
        let edited = try f.service.editMessage(id: "m1", dialogID: ScriptedService.dialogID, text: "hello world")
        #expect(edited.text == "hello world")
        #expect(try f.service.cache.search("world").map(\.message.id) == ["m1"])
        #expect(try f.service.cache.search("wrold").isEmpty)
    }

    @Test func whenTheServerWillNotShowTheEditTheCachedCopyTakesTheText() throws {
        let f = try ScriptedService([reply(200, ""), reply(500, "")])
        _ = try f.seed()
        let edited = try f.service.editMessage(id: "m1", dialogID: ScriptedService.dialogID, text: "hello world")
        #expect(edited.rawJSON == #"{"_id":"m1","message":"hello world","sender_id":1}"#)
        #expect(try f.service.cache.message(id: "m1")?.text == "hello world")
    }

    @Test func editingSomeoneElsesMessageIsAFailureThatKeepsTheText() throws {
        let f = try ScriptedService([reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)])
        _ = try f.seed()
        let error = try #require(throws: Failure.self) {
            try f.service.editMessage(id: "m1", dialogID: ScriptedService.dialogID, text: "x")
        }
        #expect(error.kind == .failure && error.hint == "only its sender can edit it")
        #expect(try f.service.cache.message(id: "m1")?.text == "helo wrold")
    }

    @Test func aDeletedMessageLeavesSearch() throws {
        let f = try ScriptedService([reply(200, #"{"SuccessfullyDeleted":{"ids":["m1"]},"NotFound":{"ids":[]}}"#)])
        _ = try f.seed()
        try f.service.deleteMessage(id: "m1", everyone: false)
        #expect(try f.service.cache.search("wrold").isEmpty)
    }

    @Test func anUnknownMessageIsBadInput() throws {
        let f = try ScriptedService([reply(200, #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":["m1"]}}"#)])
        _ = try f.seed()
        let error = try #require(throws: Failure.self) { try f.service.deleteMessage(id: "m1", everyone: false) }
        #expect(error.kind == .invalidInput && error.message == "no message with id m1")
        #expect(try f.service.cache.message(id: "m1") == nil, "gone for this user: the cache follows")
    }

    @Test func deletingSomeoneElsesMessageForEveryoneIsRefused() throws {
        let f = try ScriptedService([reply(200, #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":["m1"]}}"#)])
        _ = try f.seed()
        let error = try #require(throws: Failure.self) { try f.service.deleteMessage(id: "m1", everyone: true) }
        #expect(error.kind == .failure && error.message == "not allowed to delete message m1 for everyone")
        #expect(try f.service.cache.message(id: "m1") != nil)
    }
}

@Suite struct UserFindingTests {
    @Test(arguments: [
        (nil, UserSearch.everyone), ("  ", .everyone), ("@alice", .login("alice")), ("a@b.example", .email("a@b.example")),
        ("Ann  Lee", .text("Ann Lee")), ("ann", .text("ann")),
    ] as [(String?, UserSearch)])
    func queriesAreRead(query: String?, expected: UserSearch) throws {
        #expect(try UserSearch(parsing: query) == expected)
    }

    @Test(arguments: ["@", "@a b", "@a@b"])
    func badLoginsAreRefused(query: String) {
        #expect(throws: Failure.self) { try UserSearch(parsing: query) }
    }

    @Test func textIsALoginFirstThenFullNames() throws {
        let f = try ScriptedService([
            reply(200, #"{"user":{"id":7,"login":"lee","full_name":"Someone"}}"#),
            reply(200, #"{"current_page":1,"per_page":2,"total_entries":3,"items":[{"user":{"id":4,"login":"ann","full_name":"Ann Lee"}},{"user":{"id":7,"login":"lee"}}]}"#),
        ])
        let result = try f.service.findUsers(.text("lee"), page: 1, perPage: 2)
        #expect(result.users.map(\.id) == [4, 7], "the login match is already among the full-name matches")
        #expect(result.totalEntries == 3 && result.hasMore)
        #expect(f.transport.paths == ["GET by_login.json?login=lee", "GET by_full_name.json?full_name=lee&page=1&per_page=2"])
        #expect(try f.service.cache.user(id: 4)?.login == "ann")
    }

    @Test func shortTextIsALoginOnlyAndNobodyIsAnEmptyPage() throws {
        let f = try ScriptedService([reply(404, #"{"errors":["The resource wasn't found"]}"#)])
        let result = try f.service.findUsers(.text("al"), page: 1, perPage: 10)
        #expect(result.users.isEmpty && result.totalEntries == 0 && !result.hasMore)
        #expect(f.transport.requests.count == 1)
    }

    @Test func aServerFailureIsNotAnEmptyResult() throws {
        let f = try ScriptedService([reply(503, "")])
        let error = try #require(throws: Failure.self) { try f.service.findUsers(.everyone, page: 1, perPage: 10) }
        #expect(error.kind == .temporary)
    }
}

@Suite struct DialogAnnouncementTests {
    static let group = CachedDialog(id: "5d75393ba28f9a17e1cb0f9e", type: .group, name: "ops", occupantIDs: [1, 2, 3, 4], updatedAt: 1, rawJSON: "{}")

    @Test func aNewDialogIsAnnouncedToEveryoneElse() {
        let recipients = DialogAnnouncement(dialog: Self.group, me: 2).recipients
        #expect(recipients.map(\.userID) == [1, 3, 4])
        #expect(recipients.allSatisfy { $0.kind == .dialogCreated })
    }

    @Test func addedOccupantsHearCreatedAndTheOthersUpdated() {
        var ids = (1...9).makeIterator()
        let notifications = DialogAnnouncement(dialog: Self.group, me: 1, added: [4]).notifications(
            appID: 7, chatDomain: "localhost", dateSent: 1_700_000_000) { ObjectID(String(format: "%024x", ids.next()!))! }
        #expect(notifications.map(\.to.description) == ["2-7@localhost", "3-7@localhost", "4-7@localhost"])
        #expect(notifications.map(\.kind) == [.dialogUpdated, .dialogUpdated, .dialogCreated])
        #expect(notifications.map(\.newOccupantIDs) == [[4], [4], []])
        #expect(notifications[0].roomJID?.description == "7_5d75393ba28f9a17e1cb0f9e@muc.localhost")
        #expect(Set(notifications.map(\.id)).count == 3)
    }

    @Test func aPrivateDialogHasNoRoom() {
        let dialog = CachedDialog(id: "p", type: .private, name: "", occupantIDs: [1, 2], updatedAt: 1, rawJSON: "{}")
        let notifications = DialogAnnouncement(dialog: dialog, me: 1).notifications(appID: 7, chatDomain: "d", dateSent: 1) {
            ObjectID("000000000000000000000001")!
        }
        #expect(notifications.count == 1 && notifications[0].roomJID == nil && notifications[0].dialogType == 3)
    }
}

extension ScriptedTransport {
    /// The body of request `index`, as text.
    func bodyText(_ index: Int) throws -> String { String(decoding: requests[index].body, as: UTF8.self) }
}
