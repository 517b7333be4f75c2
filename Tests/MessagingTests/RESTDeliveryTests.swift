import Foundation
import Diagnostics
import Testing
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
@testable import Messaging

/// docs/protocol.md §4, §6: a message POST that may have been stored is never
/// sent again before history says it is not there.
@Suite struct RESTDeliveryTests {
    let scripted: ScriptedService
    var transport: ScriptedTransport { scripted.transport }
    var service: MessagingService { scripted.service }

    init() throws { scripted = try ScriptedService(retryPolicy: .immediate) }

    static func message(_ id: String, clientID: String?) -> String {
        let custom = clientID.map { #","chatctl_client_id":"\#($0)""# } ?? ""
        return #"{"_id":"\#(id)","chat_dialog_id":"d1","message":"hello","sender_id":1,"date_sent":\#(Int(Date().timeIntervalSince1970))\#(custom)}"#
    }

    static func history(_ items: [String]) -> String { #"{"skip":0,"limit":100,"items":[\#(items.joined(separator: ","))]}"# }

    var posts: Int { transport.requests.filter { $0.method == .post }.count }

    @Test(arguments: [500, 502, 503, 504])
    func aMessageTheServerStoredDespiteTheErrorIsNotSentAgain(status: Int) throws {
        let id = try service.enqueue("hello", to: "d1", owner: 1)
        transport.script = [reply(status), reply(200, Self.history([Self.message("5e0000000000000000000001", clientID: id)]))]
        let delivered = try service.deliverViaREST(clientMessageID: id, text: "hello", dialogID: "d1")
        #expect(delivered.id == "5e0000000000000000000001")
        #expect(posts == 1)
        #expect(transport.requests[1].method == .get && transport.requests[1].url.contains("chat_dialog_id=d1"))
        #expect(try service.pendingOutbox().isEmpty, "it is delivered")
    }

    @Test func aMessageHistoryDoesNotHaveIsSentAgainUnderTheSameClientID() throws {
        let id = try service.enqueue("hello", to: "d1", owner: 1)
        transport.script = [
            .failure(.timedOut, detail: "Operation timed out"),
            reply(200, Self.history([Self.message("5e0000000000000000000009", clientID: "someone-else")])),
            reply(201, Self.message("5e0000000000000000000002", clientID: id)),
        ]
        let delivered = try service.deliverViaREST(clientMessageID: id, text: "hello", dialogID: "d1")
        #expect(delivered.id == "5e0000000000000000000002")
        #expect(posts == 2)
        let bodies = try transport.requests.filter { $0.method == .post }.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.body)) }
        #expect(bodies.allSatisfy { $0["chatctl_client_id"] == .string(id) })
    }

    @Test func aConnectionThatNeverOpenedIsNeitherCheckedNorRepeated() throws {
        let id = try service.enqueue("hello", to: "d1", owner: 1)
        transport.script = [.failure(.cannotConnect, detail: "Connection refused")]
        let error = try #require(throws: Failure.self) { try service.deliverViaREST(clientMessageID: id, text: "hello", dialogID: "d1") }
        #expect(error.kind == .temporary)
        #expect(transport.requests.count == 1)
    }

    @Test func whenHistoryCannotBeReadTheMessageStaysInTheOutbox() throws {
        let id = try service.enqueue("hello", to: "d1", owner: 1)
        transport.script = [reply(503), reply(503), reply(503), reply(503)]
        let error = try #require(throws: Failure.self) { try service.deliverViaREST(clientMessageID: id, text: "hello", dialogID: "d1") }
        #expect(error.kind == .temporary)
        #expect(posts == 1, "never a second POST without knowing")
        #expect(try service.pendingOutbox().map(\.clientMessageID) == [id])
    }

    @Test func givesUpAfterThreeAttemptsEachCheckedFirst() throws {
        let id = try service.enqueue("hello", to: "d1", owner: 1)
        transport.script = [reply(502), reply(200, Self.history([])), reply(502), reply(200, Self.history([])), reply(502)]
        let error = try #require(throws: Failure.self) { try service.deliverViaREST(clientMessageID: id, text: "hello", dialogID: "d1") }
        #expect(error.kind == .temporary)
        #expect(transport.requests.map(\.method) == [.post, .get, .post, .get, .post])
    }
}
