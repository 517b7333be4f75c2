import Foundation
import Testing
import Diagnostics
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging

/// Replies, forwards, edits and deletes through the chat engine (docs/protocol.md §6):
/// the outbox keeps a reply's parameters, what the UI Kits send is cached with its quote,
/// an edit or a delete goes over REST and then to the dialog as a correction, and a
/// correction heard is applied only when it comes from the message's sender.
@Suite("Chat engine: replies, forwards, edits, deletes", .serialized)
struct MessageActionsEngineTests {
    typealias F = ListenerFixture

    static let bobsID = "6b0db884edb3b3d9cddf1330"
    static let minesID = "6b0db884edb3b3d9cddf1331"

    static func bobsMessage(_ f: F) throws {
        try f.service.cache.upsertUsers([CachedUser(id: 2, login: "bob", fullName: "Bob Builder", rawJSON: "{}")])
        let object = #"{"_id":"\#(bobsID)","chat_dialog_id":"\#(F.privateID)","date_sent":\#(F.now),"message":"did the deploy finish?","recipient_id":1,"sender_id":2}"#
        _ = try f.service.cache.upsertMessages([CachedMessage(id: bobsID, dialogID: F.privateID, senderID: 2, recipientID: 1, dateSent: F.now,
                                                              text: "did the deploy finish?", rawJSON: object)])
    }

    @Test func aQueuedReplyKeepsItsQuoteAcrossARestartAndGoesWithIt() throws {
        let f = try F(known: [F.withBob], script: [reply(200, #"{"skip":0,"limit":100,"items":[]}"#)], settings: ChatEngine.Settings())
        try Self.bobsMessage(f)
        let custom = try #require(f.service.quoting(Self.bobsID, as: .reply))
        let id = try f.service.enqueue("yes, all green", to: F.privateID, owner: 4242, custom: custom)
        let quoted = try #require(QBQuotedMessages(custom: custom))
        #expect(quoted.originSenderName == "Bob Builder")
        #expect(quoted.originals.map(\.text) == ["did the deploy finish?"] && quoted.originals.map(\.senderID) == [2])

        // Another process, later: the cache opened again has the entry with its parameters.
        let reopened = try ChatCache(path: f.directory.path + "/cache.sqlite")
        #expect(try reopened.outboxEntry(clientMessageID: id)?.customParameters == custom)
        try f.service.cache.releaseClaim(clientMessageID: id, owner: 4242)

        let report = f.engine.flushOutbox()
        #expect(report.failure == nil)
        #expect(f.engine.finish() == nil)
        #expect(f.link.written.map(\.body) == ["yes, all green"])
        #expect(f.link.written.first?.customParameters == custom, "in extraParams, as the UI Kits put them")
        let delivered = try #require(try f.cached(id))
        #expect(delivered.quoted == quoted, "the sent reply in history shows its quote")
    }

    @Test func aUIKitReplyHeardIsCachedWithItsQuote() throws {
        let f = try F(known: [F.withBob])
        var incoming = F.chat(from: "2-1@localhost/ios", id: "6b0db884edb3b3d9cddf1340", dialogID: F.privateID, body: "yes")
        incoming.customParameters = ["qb_message_action": "reply", "origin_sender_name": "Alice",
                                     "qb_original_messages": #"[{"_id":"6b0db884edb3b3d9cddf1331","message":"ready?","sender_id":1,"date_sent":1796061300000}]"#]
        f.hear(incoming)
        let cached = try #require(try f.cached("6b0db884edb3b3d9cddf1340"))
        #expect(cached.text == "yes")
        #expect(cached.quoted?.action == .reply && cached.quoted?.originSenderName == "Alice")
        #expect(cached.quoted?.originals.first?.dateSent == 1_796_061_300)
    }

    @Test func anEditGoesOverRESTThenToTheDialog() throws {
        let edited = #"{"_id":"\#(Self.minesID)","chat_dialog_id":"\#(F.privateID)","message":"fixed","sender_id":1,"recipient_id":2,"date_sent":\#(F.now)}"#
        let f = try F(known: [F.withBob], script: [reply(200, ""), reply(200, #"{"skip":0,"limit":100,"items":[\#(edited)]}"#)],
                      settings: ChatEngine.Settings())
        try f.engine.connect(joining: [F.withBob])
        try f.engine.perform(.edit(messageID: Self.minesID, dialogID: F.privateID, text: "fixed"))
        #expect(f.transport.requests.first?.method == .put)
        #expect(f.transport.requests.first?.url.contains("chat/Message/\(Self.minesID).json") == true)
        #expect(f.heard.events.contains { if case .edited(let messages) = $0 { messages.map(\.text) == ["fixed"] } else { false } })
        #expect(f.link.corrections.map(\.0) == [.replace(id: Self.minesID, text: "fixed")])
        #expect(f.link.corrections.first?.dialogID == F.privateID)
    }

    @Test func aDeleteGoesOverRESTForEveryoneThenToTheDialog() throws {
        let f = try F(known: [F.withBob], script: [reply(200, #"{"SuccessfullyDeleted":{"ids":["\#(Self.minesID)"]},"NotFound":{"ids":[]}}"#)],
                      settings: ChatEngine.Settings())
        try f.engine.connect(joining: [F.withBob])
        try f.engine.perform(.delete(messageID: Self.minesID, dialogID: F.privateID))
        #expect(f.transport.requests.first?.method == .delete)
        #expect(f.transport.requests.first?.url.contains("force=1") == true)
        #expect(f.heard.events.contains(.removed(dialogID: F.privateID, ids: [Self.minesID])))
        #expect(f.link.corrections.map(\.0) == [.retract(id: Self.minesID)])
    }

    @Test func aRefusedDeleteIsToldAndNothingIsSent() throws {
        let f = try F(known: [F.withBob], script: [reply(403, #"{"errors":["Forbidden"]}"#)], settings: ChatEngine.Settings())
        try f.engine.connect(joining: [F.withBob])
        try f.engine.perform(.delete(messageID: Self.minesID, dialogID: F.privateID))
        #expect(f.notices.contains { $0.hasPrefix("not deleted:") })
        #expect(f.link.corrections.isEmpty && !f.heard.events.contains { if case .removed = $0 { true } else { false } })
    }

    @Test func aCorrectionHeardAppliesOnlyFromTheSender() throws {
        let f = try F(known: [F.withBob])
        try Self.bobsMessage(f)
        let carol = ChatJID(parsing: "3-1@localhost/r")!, bob = ChatJID(parsing: "2-1@localhost/r")!
        f.engine.route(.correction(.replace(id: Self.bobsID, text: "forged"), from: carol, dialogID: F.privateID))
        f.engine.route(.correction(.retract(id: Self.bobsID), from: carol, dialogID: F.privateID))
        #expect(try f.cached(Self.bobsID)?.text == "did the deploy finish?", "only its sender may change it")

        f.engine.route(.correction(.replace(id: Self.bobsID, text: "did the deploy finish at last?"), from: bob, dialogID: F.privateID))
        let changed = try #require(try f.cached(Self.bobsID))
        #expect(changed.text == "did the deploy finish at last?")
        #expect(changed.rawJSON.contains(#""message":"did the deploy finish at last?""#), "the cached object too")
        #expect(f.heard.events.contains { if case .edited(let messages) = $0 { messages.map(\.id) == [Self.bobsID] } else { false } })

        f.engine.route(.correction(.retract(id: Self.bobsID), from: bob, dialogID: F.privateID))
        #expect(try f.cached(Self.bobsID) == nil)
        #expect(f.heard.events.contains(.removed(dialogID: F.privateID, ids: [Self.bobsID])))
    }
}
