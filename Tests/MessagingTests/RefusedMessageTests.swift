import Foundation
import Diagnostics
import Testing
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging

/// What can never be sent is never kept in the outbox. A refusal for good (a 4xx
/// other than 401, 408, 429) is said with the server's reason and the message leaves the
/// outbox; a failure that may pass keeps it there; a blank entry is dropped by a flush.
@Suite struct RefusedMessageTests {
    let scripted: ScriptedService
    var transport: ScriptedTransport { scripted.transport }
    var service: MessagingService { scripted.service }

    init() throws { scripted = try ScriptedService(retryPolicy: .immediate) }

    static let permissions = #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#

    @Test(arguments: [(403, Failure.Kind.invalidInput), (404, .invalidInput), (422, .failure)])
    func aPermanentRefusalIsSaidWithTheServersReasonAndNotQueued(status: Int, kind: Failure.Kind) throws {
        transport.script = [reply(status, Self.permissions)]
        var sender = RESTSender(service: service, dialogID: "d1")
        let error = try #require(throws: Failure.self) { try sender.send("hello") }
        #expect(error.isPermanent)
        #expect(error.kind == kind)
        #expect(error.message.contains("You don't have appropriate permissions"))
        #expect(error.description.contains("not kept in the outbox"))
        #expect(try service.pendingOutbox().isEmpty)
        #expect(transport.requests.count == 1, "asked once, never again")
    }

    @Test(arguments: [408, 429, 503])
    func aRefusalThatMayPassKeepsTheMessageQueued(status: Int) throws {
        transport.script = Array(repeating: reply(status), count: 8)
        var sender = RESTSender(service: service, dialogID: "d1")
        try sender.send("hello")
        let failure = try #require(sender.finish())
        #expect(failure.kind == .undelivered(1))
        #expect(try service.pendingOutbox().map(\.text) == ["hello"])
    }

    @Test func aFlushDropsBlankEntriesWithoutAskingTheServer() throws {
        _ = try service.enqueue("  \n\t", to: "d1", owner: 7)
        try service.cache.releaseClaim(clientMessageID: try #require(service.pendingOutbox().first).clientMessageID, owner: 7)
        let claimed = try service.claimForFlush(owner: 1)
        #expect(claimed.toSend.isEmpty)
        #expect(claimed.dropped.count == 1 && claimed.dropped[0].message.contains("blank"))
        #expect(try service.pendingOutbox().isEmpty)
        #expect(transport.requests.isEmpty, "nothing asked of the server")
    }

    @Test func aFlushDropsTheEntriesOfADialogTheServerRefuses() throws {
        _ = try service.enqueue("to a dialog I left", to: "d1", owner: 7)
        try service.cache.releaseClaim(clientMessageID: try #require(service.pendingOutbox().first).clientMessageID, owner: 7)
        transport.script = [reply(403, Self.permissions)]
        let claimed = try service.claimForFlush(owner: 1)
        #expect(claimed.failures.isEmpty)
        #expect(claimed.dropped.count == 1 && claimed.dropped[0].isPermanent)
        #expect(try service.pendingOutbox().isEmpty)
    }

    @Test(arguments: ["", " ", "\n\n", " \t\r\n", "\u{3000}"])
    func blankTextIsBlank(text: String) { #expect(BlankMessage.isBlank(text)) }

    @Test(arguments: ["a", " .", "\u{200B}x", "[attachment]"])
    func textWithAnythingToReadIsNot(text: String) { #expect(!BlankMessage.isBlank(text)) }

    @Test(arguments: [("forbidden", "auth", true), ("item-not-found", "cancel", true), ("not-acceptable", "modify", false),
                      ("internal-server-error", "wait", false), ("forbidden", "wait", false), ("service-unavailable", "cancel", false)])
    func aBouncedStanzaIsPermanentOnlyWhenItsConditionSaysSo(condition: String, type: String, permanent: Bool) {
        let error = ChatMessageError(id: "5e0000000000000000000001", from: nil, condition: condition, type: type, text: nil)
        #expect(error.isPermanent == permanent)
    }
}
