#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

@Suite struct MessageEndpointTests {
    static let base = "http://127.0.0.1:8080"
    static let historyBody = #"""
    {"skip":0,"limit":100,"items":[\#(QBMessageTests.groupMessage),
     {"_id":"m0","chat_dialog_id":"5d75d2b0a28f9a1b2c3d4e5f","message":"older","sender_id":"7","date_sent":1567960000.5,
      "read_ids":["7"],"delivered_ids":"7,8"}]}
    """#

    /// History never marks messages read unless asked: `mark_as_read=0` is in the default query.
    @Test func historySendsMarkAsReadZeroByDefault() throws {
        let transport = ScriptedTransport([reply(200, Self.historyBody)])
        let page = try chatClient(transport).messages(MessageQuery(dialogId: "5d75d2b0a28f9a1b2c3d4e5f"))
        let sent = transport.requests[0]
        #expect(sent.method == .get)
        #expect(sent.url == Self.base
            + "/chat/Message.json?chat_dialog_id=5d75d2b0a28f9a1b2c3d4e5f&sort_desc=date_sent&limit=100&skip=0&mark_as_read=0")
        #expect(sent.header("QB-Token") == "tok-user")
        #expect(page.totalEntries == nil)
        #expect(page.skip == 0)
        #expect(page.limit == 100)
        #expect(page.items.map(\.id) == ["5d75d2b0a28f9a1b2c3d4e70", "m0"])
        #expect(page.items[1].senderId == 7)
        #expect(page.items[1].dateSent == 1567960000)
        #expect(page.items[1].readIds == [7])
        #expect(page.items[1].deliveredIds == [7, 8])
        #expect(page.items[0].customParameters["priority"] == "high")
    }

    @Test func historyWithDateBoundsIsPercentEncoded() throws {
        let transport = ScriptedTransport([reply(200, #"{"skip":200,"limit":50,"items":[]}"#)])
        let query = MessageQuery(dialogId: "d1", limit: 50, skip: 200, sentBefore: 1567963451, sentAfter: 1567900000)
        let page = try chatClient(transport).messages(query)
        #expect(transport.requests[0].url == Self.base
            + "/chat/Message.json?chat_dialog_id=d1&sort_desc=date_sent&limit=50&skip=200&mark_as_read=0&date_sent%5Blt%5D=1567963451&date_sent%5Bgt%5D=1567900000")
        #expect(page.items.isEmpty)
        #expect(page.skip == 200)
    }

    @Test func historyMarksReadOnlyWhenAsked() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[]}"#)])
        _ = try chatClient(transport).messages(MessageQuery(dialogId: "d1", markAsRead: true))
        #expect(transport.requests[0].url == Self.base + "/chat/Message.json?chat_dialog_id=d1&sort_desc=date_sent&limit=100&skip=0")
        #expect(!transport.requests[0].url.contains("mark_as_read"))
    }

    @Test func historyWithTotalEntriesAndItemsWithoutDialogId() throws {
        let transport = ScriptedTransport([reply(200, #"{"total_entries":"1","skip":0,"limit":100,"items":[{"_id":"m1","sender_id":7,"date_sent":1}]}"#)])
        let page = try chatClient(transport).messages(MessageQuery(dialogId: "d1"))
        #expect(page.totalEntries == 1)
        #expect(page.items.first?.chatDialogId == "d1")
    }

    @Test func historyEscapesTheDialogId() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[]}"#)])
        _ = try chatClient(transport).messages(MessageQuery(dialogId: "d1&mark_as_read=1"))
        #expect(transport.requests[0].url.hasPrefix(Self.base + "/chat/Message.json?chat_dialog_id=d1%26mark_as_read%3D1&"))
    }

    @Test func historyForNonOccupantIsForbidden() throws {
        let transport = ScriptedTransport([
            reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#),
        ])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).messages(MessageQuery(dialogId: "d1"))
        }
        #expect(error.kind == .http(status: 403))
        #expect(error.reasons == ["You don't have appropriate permissions to perform this operation"])
        #expect(error.request == "GET " + Self.base + "/chat/Message.json")
    }

    @Test func historyOfUnknownDialogIsNotFound() throws {
        let transport = ScriptedTransport([reply(404, #"{"errors":["The resource wasn't found"]}"#)])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).messages(MessageQuery(dialogId: "nope"))
        }
        #expect(error.status == 404)
        #expect(error.reasons == ["The resource wasn't found"])
        #expect(error.description == "GET \(Self.base)/chat/Message.json: 404 The resource wasn't found")
    }

    @Test func historyWithoutItemsIsInvalid() throws {
        let transport = ScriptedTransport([reply(200, #"{"skip":0}"#)])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).messages(MessageQuery(dialogId: "d1"))
        }
        #expect(error.kind == .invalidResponse)
    }

    @Test func sendMessageBodyAndStoredMessage() throws {
        let stored = #"{"_id":"m9","chat_dialog_id":"d1","message":"hi & bye","sender_id":7,"recipient_id":42,"date_sent":1567963451,"read_ids":[7],"delivered_ids":[7],"attachments":[],"priority":"high"}"#
        let transport = ScriptedTransport([reply(201, stored)])
        let message = try chatClient(transport).sendMessage(
            dialogId: "d1", text: "hi & bye", sendToChat: true, markable: true,
            custom: ["priority": "high", "chat_dialog_id": "elsewhere"])
        #expect(transport.requests[0].method == .post)
        #expect(transport.requests[0].url == Self.base + "/chat/Message.json")
        #expect(try transport.bodyJSON(0) == [
            "chat_dialog_id": "d1", "message": "hi & bye", "send_to_chat": 1, "markable": 1, "priority": "high",
        ])
        #expect(message.id == "m9")
        #expect(message.recipientId == 42)
        #expect(message.customParameters == ["priority": "high"])
    }

    @Test func sendMessageStoredOnlyWithAttachmentAndNoText() throws {
        let transport = ScriptedTransport([reply(201, #"{"_id":"m10","chat_dialog_id":"d1","sender_id":7,"date_sent":1}"#)])
        let attachment = QBAttachment(type: "image", id: "uid-1", name: "a.png", size: 10, contentType: "image/png")
        let message = try chatClient(transport).sendMessage(dialogId: "d1", text: nil, sendToChat: false,
                                                            attachments: [attachment])
        #expect(try transport.bodyJSON(0) == [
            "chat_dialog_id": "d1",
            "attachments": [["type": "image", "id": "uid-1", "name": "a.png", "size": 10, "content-type": "image/png"]],
        ])
        #expect(message.message == nil)
    }

    @Test func sendMessageWithoutAStoredMessageIsInvalid() throws {
        let transport = ScriptedTransport([reply(201, #"{"ok":true}"#)])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).sendMessage(dialogId: "d1", text: "x")
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.request == "POST " + Self.base + "/chat/Message.json")
    }

    @Test func markReadPutsReadFlagForJoinedIds() throws {
        let transport = ScriptedTransport([reply(200)])
        try chatClient(transport).markRead(messageIds: ["m1", "m2"], dialogId: "d1")
        #expect(transport.requests[0].method == .put)
        #expect(transport.requests[0].url == Self.base + "/chat/Message/m1,m2.json")
        #expect(try transport.bodyJSON(0) == ["read": 1, "chat_dialog_id": "d1"])
    }

    @Test func markReadOfNothingSendsNothing() throws {
        let transport = ScriptedTransport([])
        try chatClient(transport).markRead(messageIds: [], dialogId: "d1")
        #expect(transport.requests.isEmpty)
    }

    @Test func markReadForbiddenCarriesTheReason() throws {
        let transport = ScriptedTransport([
            reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#),
        ])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).markRead(messageIds: ["m1"], dialogId: "d1")
        }
        #expect(error.kind == .http(status: 403))
        #expect(error.reasons == ["You don't have appropriate permissions to perform this operation"])
    }

    @Test func deleteMessagesReadsDeletedAndNotFound() throws {
        let transport = ScriptedTransport([reply(200, #"{"SuccessfullyDeleted":{"ids":["m1"]},"NotFound":{"ids":["m2"]}}"#)])
        let result = try chatClient(transport).deleteMessages(ids: ["m1", "m2"])
        #expect(transport.requests[0].method == .delete)
        #expect(transport.requests[0].url == Self.base + "/chat/Message/m1,m2.json")
        #expect(result.successfullyDeleted == ["m1"])
        #expect(result.notFound == ["m2"])
    }

    @Test(arguments: [
        #"{"successfully_deleted":{"ids":["m1"]},"not_found":{"ids":[]}}"#,
        #"{"SuccessfullyDeleted":["m1"]}"#,
        #"{"SuccessfullyDeleted":{"ids":"m1"},"NotFound":{"ids":null}}"#,
    ])
    func deleteMessagesToleratesAnswerShapes(body: String) throws {
        let transport = ScriptedTransport([reply(200, body)])
        let result = try chatClient(transport).deleteMessages(ids: ["m1"])
        #expect(result == QBDeletionResult(successfullyDeleted: ["m1"], notFound: []))
    }

    @Test func deleteMessagesForEveryoneSendsForceAndReadsWrongPermissions() throws {
        let body = #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":["m1"]}}"#
        let transport = ScriptedTransport([reply(200, body)])
        let result = try chatClient(transport).deleteMessages(ids: ["m1"], force: true)
        #expect(transport.requests[0].url == Self.base + "/chat/Message/m1.json?force=1")
        #expect(result == QBDeletionResult(successfullyDeleted: [], notFound: [], wrongPermissions: ["m1"]))
    }

    @Test func editMessagePutsTheTextAndTheDialog() throws {
        let transport = ScriptedTransport([reply(200, "")])
        try chatClient(transport).editMessage(id: "6b0db887c4ca891d2141e1cb", dialogId: "d1", text: "fixed \"typo\"")
        let sent = transport.requests[0]
        #expect(sent.method == .put)
        #expect(sent.url == Self.base + "/chat/Message/6b0db887c4ca891d2141e1cb.json")
        #expect(String(decoding: sent.body, as: UTF8.self) == #"{"chat_dialog_id":"d1","message":"fixed \"typo\""}"#)
    }

    @Test func editMessageOfSomeoneElseIsForbidden() throws {
        let transport = ScriptedTransport([reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).editMessage(id: "m1", dialogId: "d1", text: "x")
        }
        #expect(error.status == 403)
    }

    @Test func oneMessageIsAskedByIdWithoutMarkingItRead() throws {
        let body = #"{"skip":0,"limit":100,"items":[{"_id":"m0","message":"other"},{"_id":"m1","message":"mine","sender_id":7}]}"#
        let transport = ScriptedTransport([reply(200, body), reply(200, #"{"items":[]}"#), reply(200, "{}")])
        let api = chatClient(transport)
        let found = try api.message(id: "m1", dialogId: "d1")
        #expect(transport.requests[0].url == Self.base + "/chat/Message.json?chat_dialog_id=d1&_id=m1&mark_as_read=0")
        #expect(found?.message == "mine")
        #expect(found?.chatDialogId == "d1")
        #expect(try api.message(id: "m1", dialogId: "d1") == nil)
        let garbage = try #require(throws: QuickBloxError.self) { try api.message(id: "m1", dialogId: "d1") }
        #expect(garbage.kind == .invalidResponse)
    }

    @Test func unreadCountsForSomeDialogs() throws {
        let transport = ScriptedTransport([reply(200, #"{"total":15,"d1":"10","d2":5}"#)])
        let counts = try chatClient(transport).unreadCounts(dialogIds: ["d1", "d2"])
        #expect(transport.requests[0].method == .get)
        #expect(transport.requests[0].url == Self.base + "/chat/Message/unread.json?chat_dialog_ids=d1%2Cd2")
        #expect(counts.total == 15)
        #expect(counts.byDialog == ["d1": 10, "d2": 5])
    }

    @Test func unreadCountsForAllDialogsWithoutTotal() throws {
        let transport = ScriptedTransport([reply(200, #"{"d1":2,"d2":3}"#)])
        let counts = try chatClient(transport).unreadCounts()
        #expect(transport.requests[0].url == Self.base + "/chat/Message/unread.json")
        #expect(counts.total == 5)
        #expect(counts.byDialog == ["d1": 2, "d2": 3])
    }
}
