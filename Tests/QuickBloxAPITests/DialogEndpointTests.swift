#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// A client with a user token and no retries, talking to `transport`.
func chatClient(_ transport: ScriptedTransport) -> QuickBloxClient {
    let client = QuickBloxClient(apiEndpoint: "http://127.0.0.1:8080", credentials: QuickBloxClientTests.app,
                                 transport: transport)
    client.retryPolicy = .never
    client.token = "tok-user"
    return client
}

/// A dialogs page body; `total` nil leaves `total_entries` out.
func dialogPageBody(_ ids: [String], total: Int? = nil, skip: Int = 0, limit: Int = 100) -> String {
    let items = ids.map { #"{"_id":"\#($0)","type":2,"occupants_ids":[7,8]}"# }.joined(separator: ",")
    let totalMember = total.map { #""total_entries":\#($0),"# } ?? ""
    return #"{\#(totalMember)"skip":\#(skip),"limit":\#(limit),"items":[\#(items)]}"#
}

@Suite struct DialogEndpointTests {
    static let base = "http://127.0.0.1:8080"

    @Test func listSendsDefaultQueryAndDecodesPage() throws {
        let body = #"{"total_entries":2,"skip":0,"limit":100,"items":[\#(QBDialogTests.groupDialog),{"_id":"d2","type":"3","occupants_ids":"7,42","last_message_date_sent":"1567963000"}]}"#
        let transport = ScriptedTransport([reply(200, body)])
        let page = try chatClient(transport).dialogs()
        let sent = transport.requests[0]
        #expect(sent.method == .get)
        #expect(sent.url == Self.base + "/chat/Dialog.json?limit=100&skip=0&sort_desc=last_message_date_sent")
        #expect(sent.header("QB-Token") == "tok-user")
        #expect(sent.body.isEmpty)
        #expect(page.totalEntries == 2)
        #expect(page.skip == 0)
        #expect(page.limit == 100)
        #expect(page.items.map(\.id) == ["5d75d2b0a28f9a1b2c3d4e5f", "d2"])
        #expect(page.items[1].type == .private)
        #expect(page.items[1].occupantIDs == [7, 42])
        #expect(page.items[1].lastMessageDateSent == 1567963000)
    }

    /// Brackets and commas in filter keys and values are percent-encoded (`type%5Bin%5D=2%2C3`).
    @Test func listWithTypeAndUpdatedFiltersIsPercentEncoded() throws {
        let transport = ScriptedTransport([reply(200, dialogPageBody([], total: 0))])
        let query = DialogQuery(limit: 50, skip: 100, types: [.group, .private], updatedAfter: 1567963451)
        _ = try chatClient(transport).dialogs(query)
        #expect(transport.requests[0].url == Self.base
            + "/chat/Dialog.json?limit=50&skip=100&sort_desc=last_message_date_sent&type%5Bin%5D=2%2C3&updated_at%5Bgt%5D=1567963451")
    }

    /// One dialog by id (a system notification named it): `_id[in]`, encoded the same way.
    @Test func listByIdsUsesIdIn() throws {
        let transport = ScriptedTransport([reply(200, dialogPageBody([], total: 0))])
        _ = try chatClient(transport).dialogs(DialogQuery(limit: 2, ids: ["5d75d2b0a28f9a1b2c3d4e5f", "5d75d2b0a28f9a1b2c3d4e60"]))
        #expect(transport.requests[0].url == Self.base
            + "/chat/Dialog.json?limit=2&skip=0&sort_desc=last_message_date_sent&_id%5Bin%5D=5d75d2b0a28f9a1b2c3d4e5f%2C5d75d2b0a28f9a1b2c3d4e60")
    }

    @Test func pageWithoutTotalOrLimitFallsBackToTheQuery() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[{"_id":"d1","type":2}]}"#)])
        let page = try chatClient(transport).dialogs(DialogQuery(limit: 10, skip: 20))
        #expect(page.totalEntries == 21)
        #expect(page.skip == 20)
        #expect(page.limit == 10)
    }

    @Test func listRejectsItemsWithoutIdAndBodiesWithoutItems() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[{"type":2}]}"#), reply(200, #"{"total_entries":0}"#)])
        let api = chatClient(transport)
        let first = try #require(throws: QuickBloxError.self) { try api.dialogs() }
        #expect(first.kind == .invalidResponse)
        #expect(first.request == "GET " + Self.base + "/chat/Dialog.json")
        #expect(first.reasons == ["a dialog without an _id or a type"])
        let second = try #require(throws: QuickBloxError.self) { try api.dialogs() }
        #expect(second.kind == .invalidResponse)
        #expect(second.reasons == [#"no "items" array"#])
    }

    @Test func allDialogsPagesUntilAShortPage() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], skip: 0, limit: 2)),
            reply(200, dialogPageBody(["c", "d"], skip: 2, limit: 2)),
            reply(200, dialogPageBody(["e"], skip: 4, limit: 2)),
            reply(200, dialogPageBody(["never"], skip: 6, limit: 2)),
        ])
        let dialogs = try chatClient(transport).allDialogs(DialogQuery(limit: 2, types: [.private]))
        #expect(dialogs.map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(transport.requests.map(\.url) == [0, 2, 4].map {
            Self.base + "/chat/Dialog.json?limit=2&skip=\($0)&sort_desc=last_message_date_sent&type%5Bin%5D=3"
        })
    }

    @Test func allDialogsStopsAtTotalEntriesWithoutAnEmptyPage() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], total: 4, limit: 2)),
            reply(200, dialogPageBody(["c", "d"], total: 4, skip: 2, limit: 2)),
            reply(200, dialogPageBody(["never"], total: 4, skip: 4, limit: 2)),
        ])
        let dialogs = try chatClient(transport).allDialogs(DialogQuery(limit: 2))
        #expect(dialogs.map(\.id) == ["a", "b", "c", "d"])
        #expect(transport.requests.count == 2)
    }

    @Test func allDialogsStopsAtAnEmptyPage() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], limit: 2)),
            reply(200, dialogPageBody([], skip: 2, limit: 2)),
        ])
        #expect(try chatClient(transport).allDialogs(DialogQuery(limit: 2)).map(\.id) == ["a", "b"])
        #expect(transport.requests.count == 2)
    }

    /// Asked for 3, the server applies 2: a page of 2 is full, not the last one.
    @Test func allDialogsJudgesShortPagesByTheLimitTheServerApplied() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], limit: 2)),
            reply(200, dialogPageBody(["c"], skip: 2, limit: 2)),
        ])
        let dialogs = try chatClient(transport).allDialogs(DialogQuery(limit: 3))
        #expect(dialogs.map(\.id) == ["a", "b", "c"])
        #expect(transport.requests.last?.url.contains("skip=2&") == true)
    }

    /// A dialog that moved to the next page while paging is kept once.
    @Test func allDialogsKeepsEachDialogOnce() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], limit: 2)),
            reply(200, dialogPageBody(["b", "c"], skip: 2, limit: 2)),
            reply(200, dialogPageBody([], skip: 4, limit: 2)),
        ])
        #expect(try chatClient(transport).allDialogs(DialogQuery(limit: 2)).map(\.id) == ["a", "b", "c"])
    }

    @Test func allDialogsFailsWhenTheServerIgnoresSkip() throws {
        let transport = ScriptedTransport(Array(repeating: reply(200, dialogPageBody(["a", "b"], limit: 2)), count: 10))
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).allDialogs(DialogQuery(limit: 2))
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.reasons == ["the server sent the same dialogs again at skip=2"])
        #expect(transport.requests.count == 2)
    }

    @Test func allDialogsGivesUpAfterMaxPages() throws {
        let pages = (0..<10).map { reply(200, dialogPageBody(["p\($0)a", "p\($0)b"], skip: $0 * 2, limit: 2)) }
        let transport = ScriptedTransport(pages)
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).allDialogs(DialogQuery(limit: 2), maxPages: 3)
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.reasons == ["more than 3 pages of dialogs"])
        #expect(transport.requests.count == 3)
    }

    @Test func allDialogsPassesErrorsThrough() throws {
        let transport = ScriptedTransport([
            reply(200, dialogPageBody(["a", "b"], limit: 2)),
            reply(422, #"{"errors":{"base":["Forbidden. Need user."]}}"#),
        ])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).allDialogs(DialogQuery(limit: 2)) }
        #expect(error.kind == .http(status: 422))
        #expect(error.reasons == ["Forbidden. Need user"])
    }

    @Test func createPrivateDialogSendsPeerAsString() throws {
        let created = #"{"_id":"d3","type":3,"user_id":7,"occupants_ids":[7,42],"xmpp_room_jid":null,"created_at":"2019-09-08T17:24:11Z"}"#
        let transport = ScriptedTransport([reply(201, created)])
        let dialog = try chatClient(transport).createDialog(type: .private, occupantIDs: [42])
        #expect(transport.requests[0].method == .post)
        #expect(transport.requests[0].url == Self.base + "/chat/Dialog.json")
        #expect(try transport.bodyJSON(0) == ["type": 3, "occupants_ids": "42"])
        #expect(dialog.id == "d3")
        #expect(dialog.occupantIDs == [7, 42])
    }

    @Test func createGroupDialogSendsNameAndCommaSeparatedOccupants() throws {
        let transport = ScriptedTransport([reply(201, QBDialogTests.groupDialog)])
        let dialog = try chatClient(transport).createDialog(type: .group, name: "ops", occupantIDs: [1, 2, 3])
        #expect(try transport.bodyJSON(0) == ["type": 2, "name": "ops", "occupants_ids": "1,2,3"])
        #expect(String(decoding: transport.requests[0].body, as: UTF8.self) == #"{"name":"ops","occupants_ids":"1,2,3","type":2}"#)
        #expect(dialog.type == .group)
    }

    @Test func createDialogWithoutADialogInTheAnswerIsInvalid() throws {
        let transport = ScriptedTransport([reply(201, "{}")])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).createDialog(type: .private, occupantIDs: [42])
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.request == "POST " + Self.base + "/chat/Dialog.json")
    }

    @Test func updateDialogRenamesAndPushesAndPulls() throws {
        let transport = ScriptedTransport([reply(200, QBDialogTests.groupDialog)])
        _ = try chatClient(transport).updateDialog(id: "5d75d2b0a28f9a1b2c3d4e5f", name: "ops2", addOccupants: [10, 11],
                                                   removeOccupants: [9])
        #expect(transport.requests[0].method == .put)
        #expect(transport.requests[0].url == Self.base + "/chat/Dialog/5d75d2b0a28f9a1b2c3d4e5f.json")
        #expect(try transport.bodyJSON(0) == [
            "name": "ops2", "push_all": ["occupants_ids": [10, 11]], "pull_all": ["occupants_ids": [9]],
        ])
    }

    @Test func updateDialogSendsOnlyWhatIsGiven() throws {
        let transport = ScriptedTransport([reply(200, QBDialogTests.groupDialog), reply(200, QBDialogTests.groupDialog)])
        let api = chatClient(transport)
        _ = try api.updateDialog(id: "d1", name: "renamed")
        _ = try api.updateDialog(id: "d1", removeOccupants: [8])
        #expect(try transport.bodyJSON(0) == ["name": "renamed"])
        #expect(try transport.bodyJSON(1) == ["pull_all": ["occupants_ids": [8]]])
    }

    @Test func updateDialogForbiddenCarriesTheReason() throws {
        let transport = ScriptedTransport([
            reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#),
        ])
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).updateDialog(id: "d1", addOccupants: [5])
        }
        #expect(error.kind == .http(status: 403))
        #expect(error.status == 403)
        #expect(error.reasons == ["You don't have appropriate permissions to perform this operation"])
        #expect(error.request == "PUT " + Self.base + "/chat/Dialog/d1.json")
        #expect(!error.isUnauthorized)
        #expect(transport.requests.count == 1)
    }

    @Test func deleteDialogsJoinsIdsAndForces() throws {
        let transport = ScriptedTransport([reply(200), reply(200)])
        let api = chatClient(transport)
        let result = try api.deleteDialogs(ids: ["d1", "d2"], force: true)
        try api.deleteDialogs(ids: ["d3"])
        #expect(transport.requests[0].method == .delete)
        #expect(transport.requests[0].url == Self.base + "/chat/Dialog/d1,d2.json?force=1")
        #expect(transport.requests[1].url == Self.base + "/chat/Dialog/d3.json")
        #expect(transport.requests[0].body.isEmpty)
        #expect(result == QBDeletionResult(successfullyDeleted: ["d1", "d2"], notFound: []))
    }

    @Test func deleteDialogsReadsAPerIdAnswer() throws {
        let transport = ScriptedTransport([reply(200, #"{"SuccessfullyDeleted":{"ids":["d1"]},"NotFound":{"ids":["d2"]}}"#)])
        let result = try chatClient(transport).deleteDialogs(ids: ["d1", "d2"])
        #expect(result == QBDeletionResult(successfullyDeleted: ["d1"], notFound: ["d2"]))
    }

    @Test func deleteNoDialogsSendsNothing() throws {
        let transport = ScriptedTransport([])
        let result = try chatClient(transport).deleteDialogs(ids: [])
        #expect(result.successfullyDeleted.isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test func deleteUnknownDialogCarriesTheReason() throws {
        let transport = ScriptedTransport([reply(404, #"{"errors":["The resource wasn't found"]}"#)])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).deleteDialogs(ids: ["nope"]) }
        #expect(error.kind == .http(status: 404))
        #expect(error.reasons == ["The resource wasn't found"])
        #expect(error.description == "DELETE \(Self.base)/chat/Dialog/nope.json: 404 The resource wasn't found")
    }

    /// An id from user input cannot add path segments or a query.
    @Test func idsInPathsAreEscaped() throws {
        let transport = ScriptedTransport([reply(200)])
        try chatClient(transport).deleteDialogs(ids: ["../a?b=1"])
        #expect(transport.requests[0].url == Self.base + "/chat/Dialog/..%2Fa%3Fb%3D1.json")
    }
}
