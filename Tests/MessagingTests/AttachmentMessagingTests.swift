import Foundation
import Testing
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging

/// Attachments through messaging (docs/protocol.md §8): what is cached of a message
/// heard over chat or read over REST, and what the outbox sends over REST.
@Suite("Messaging: attachments")
struct AttachmentMessagingTests {
    typealias F = ListenerFixture
    static let cat = QBAttachment(type: "image", id: "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b00", name: "cat.jpg", size: 1_258_291,
                                  contentType: "image/jpeg")

    static func decode(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    /// Over chat the attributes are text; cached as a REST history item has them (the size
    /// a number), every attribute kept, so `--json` and `history` agree.
    @Test func aMessageHeardOverChatKeepsItsAttachmentsLikeARESTItem() throws {
        let f = try F(known: [F.withBob])
        var incoming = F.chat(from: "2-1@localhost/web", dialogID: F.privateID, body: "[attachment]")
        incoming.attachments = [ChatAttachment(attributes: [.init("type", "image"), .init("id", "u1"), .init("name", "cat.jpg"),
                                                            .init("size", "1258291.0"), .init("content-type", "image/jpeg"),
                                                            .init("width", "1000")])]
        f.hear(incoming)
        let cached = try #require(try f.cached(incoming.id))
        let expected: JSONValue = [["type": "image", "id": "u1", "name": "cat.jpg", "size": 1_258_291, "content-type": "image/jpeg",
                                    "width": "1000"]]
        #expect(try Self.decode(cached.attachmentsJSON) == expected)
        #expect(try Self.decode(cached.rawJSON)["attachments"] == expected)
        #expect(cached.attachments.map(\.name) == ["cat.jpg"] && cached.attachments.first?.size == 1_258_291)
        #expect(cached.textIsAttachmentPlaceholder)
        #expect(try f.service.cache.search("cat").map(\.message.id) == [incoming.id])
    }

    @Test func aRESTMessageInTheObjectKeyedFormIsCachedAsAnArray() throws {
        let json = try Self.decode(#"""
            {"_id":"6b0db887c4ca891d2141e1cb","chat_dialog_id":"d1","message":"two files","sender_id":2,"date_sent":1796061319,
             "attachments":{"1":{"type":"file","id":"u2","name":"b.pdf","size":"20"},"0":{"type":"file","id":"u1","name":"a.txt"}}}
            """#)
        let record = CacheRecords.message(try #require(QBMessage(json: json)))
        #expect(try Self.decode(record.attachmentsJSON) == [["type": "file", "id": "u1", "name": "a.txt"],
                                                             ["type": "file", "id": "u2", "name": "b.pdf", "size": "20"]])
        #expect(record.attachments.map(\.size) == [nil, 20])
        #expect(!record.textIsAttachmentPlaceholder)
        #expect(CacheRecords.message(try #require(QBMessage(json: ["_id": "m", "chat_dialog_id": "d"]))).attachmentsJSON == "")
    }

    /// What the SDKs read back from chatctl: the protocol's fields, `content-type` so spelt,
    /// extra keys as attributes; and the way back gives the same attachment.
    @Test func theChatElementOfAnAttachmentAndBack() {
        var sent = Self.cat
        sent.raw = ["type": "image", "id": .string(Self.cat.id!), "duration": 12, "meta": ["x": 1]]
        let element = ChatAttachment(sent)
        #expect(element == ChatAttachment(type: "image", id: Self.cat.id, name: "cat.jpg", size: 1_258_291,
                                          contentType: "image/jpeg", extra: ["duration": "12"]))
        #expect(element.attributes.prefix(5).map(\.name) == ["type", "id", "name", "size", "content-type"])
        let back = QBAttachment(element)
        #expect(back.id == Self.cat.id && back.size == 1_258_291 && back.contentType == "image/jpeg" && back.raw["duration"] == "12")
    }

    /// REST: the array form in the JSON body, `[attachment]` as the body without text; the
    /// outbox keeps the attachments until the server has the message.
    @Test func anAttachmentOnlyMessageOverRESTIsSentAsTheSDKsSendIt() throws {
        let s = try ScriptedService([])
        let id = try s.service.enqueue("", attachments: [Self.cat], to: "d1", owner: 1)
        let entry = try #require(try s.service.pendingOutbox().first)
        #expect(entry.text == "[attachment]")
        #expect(CacheRecords.attachments(entry.attachmentsJSON) == [QBAttachment(json: Self.cat.json)!], "its wire form")
        let stored = #"{"_id":"6b0db887c4ca891d2141e1cb","chat_dialog_id":"d1","message":"[attachment]","sender_id":1,"date_sent":1796061319,"attachments":[{"type":"image","id":"8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b00","name":"cat.jpg","size":1258291,"content-type":"image/jpeg"}]}"#
        s.transport.script = [reply(201, stored)]
        let message = try s.service.deliverViaREST(clientMessageID: id, text: entry.text,
                                                   attachments: CacheRecords.attachments(entry.attachmentsJSON), dialogID: "d1")
        let body = try Self.decode(String(decoding: try #require(s.transport.requests.first).body, as: UTF8.self))
        #expect(body == [
            "chat_dialog_id": "d1", "message": "[attachment]", "send_to_chat": 1, "markable": 1, "chatctl_client_id": .string(id),
            "attachments": [["type": "image", "id": "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b00", "name": "cat.jpg", "size": 1_258_291,
                             "content-type": "image/jpeg"]],
        ])
        #expect(message.attachments.map(\.id) == [Self.cat.id])
        #expect(try s.service.pendingOutbox().isEmpty)
        #expect(try s.service.cache.message(id: message.id)?.attachmentsJSON == message.attachmentsJSON)
    }

    @Test func textStaysTheBodyBesideAttachments() {
        #expect(MessagingService.body("look", attachments: [Self.cat]) == "look")
        #expect(MessagingService.body("", attachments: [Self.cat]) == "[attachment]")
        #expect(MessagingService.body("", attachments: []) == "")
    }

    /// What chatctl keeps of a message it sent over chat: the attachments in their wire form.
    @Test func aSentMessageIsKeptWithItsAttachments() throws {
        let record = CachedMessage(sentID: "6b0db887c4ca891d2141e1cb", dialogID: "d1", sender: 1, recipient: 2, text: "[attachment]",
                                   dateSent: 1_796_061_319, attachments: [Self.cat])
        #expect(record.attachments == [QBAttachment(json: Self.cat.json)!])
        #expect(try Self.decode(record.rawJSON)["attachments"]?.arrayValue?.first?["content-type"] == "image/jpeg")
    }
}
