import Foundation
import Testing
import ClientConfiguration
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
@testable import Messaging

/// Messages with attachments through the outbox to the real sandbox (docs/protocol.md §8):
/// over chat, over REST, and again from the outbox by a flush; each arrives once, and the
/// other user reads the attachments in the shape the SDKs give them. The uids are made up:
/// no blob is uploaded.
@Suite("Messaging: attachments through the outbox to the sandbox", .serialized)
struct AttachmentOutboxSandboxTests {
    static func attachment(_ n: Int, type: String = "image", name: String) -> QBAttachment {
        QBAttachment(type: type, id: String(format: "%032x", n), name: name, size: 1000 * n, contentType: "image/png")
    }

    @Test func overChatOverRESTAndFromTheOutboxEachArrivesOnceWithItsAttachments() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let suffix = String(Int.random(in: 100_000...999_999))
        let alice = try signUpUser(on: sandbox, login: "alice" + suffix, password: "alice-pass-1")
        _ = try signUpUser(on: sandbox, login: "bob" + suffix, password: "bob-pass-123")
        let aliceToken = try sandbox.createSession(login: "alice" + suffix, password: "alice-pass-1")
        let bobToken = try sandbox.createSession(login: "bob" + suffix, password: "bob-pass-123")

        let config = try ClientConfig.load(path: sandbox.configPath)
        let api = QuickBloxClient(apiEndpoint: config.apiEndpoint, credentials: config.credentials,
                                  transport: try CurlHTTPClient(options: HTTPClientOptions(caFile: config.caFile)))
        api.token = aliceToken
        let directory = try TemporaryDirectory()
        let service = MessagingService(api: api, cache: try ChatCache(path: directory.file("cache.sqlite")), me: alice)
        let dialog = try service.privateDialog(login: "bob" + suffix, source: .server, create: true).dialog
        let owner = Int(getpid())

        // Over chat: one message of attachments only, one with text beside two.
        let link = ChatLink(config: config, me: alice) { aliceToken }
        let engine = ChatEngine(link: link, service: service, settings: ChatEngine.Settings(), owner: owner) { _ in }
        try engine.connect(joining: [dialog])
        try engine.outbox.send([("", [Self.attachment(1, name: "one.png")])], to: dialog)
        try engine.outbox.send([("two & three", [Self.attachment(2, name: "two.png"), Self.attachment(3, type: "file", name: "three.txt")])],
                               to: dialog)
        #expect(engine.finish() == nil)
        #expect(engine.deliveredCount == 2 && engine.undeliveredCount == 0)

        // Over REST.
        let viaREST = try service.enqueue("", attachments: [Self.attachment(4, name: "four.png")], to: dialog.id, owner: owner)
        _ = try service.deliverViaREST(clientMessageID: viaREST, text: "", attachments: [Self.attachment(4, name: "four.png")],
                                       dialogID: dialog.id)

        // Left in the outbox by a sender that died before sending: a flush sends it, attachments and all.
        try service.cache.enqueue(dialogID: dialog.id, text: "[attachment]", clientMessageID: link.connection.makeMessageID().rawValue,
                                  createdAt: Int(Date().timeIntervalSince1970), owner: nil,
                                  attachmentsJSON: CacheRecords.attachmentsJSON([Self.attachment(5, name: "five.png")]))
        let flushed = engine.flushOutbox()
        #expect(flushed.alreadyThere == 0 && flushed.failure == nil)
        #expect(engine.finish() == nil)
        #expect(engine.deliveredCount == 3)
        #expect(try service.pendingOutbox().isEmpty)

        // Bob reads them as the sandbox stored them: an array, the uid as `id`, `content-type`, a numeric size.
        let r = try sandbox.response(method: "GET", path: "/chat/Message.json",
                                     params: [("chat_dialog_id", dialog.id.rawValue), ("sort_asc", "date_sent"), ("mark_as_read", "0")], token: bobToken)
        let items = try #require((r.json as? [String: Any])?["items"] as? [[String: Any]], "history: \(r.body)")
        #expect(items.map { $0["message"] as? String } == ["[attachment]", "two & three", "[attachment]", "[attachment]"])
        let files = items.map { ($0["attachments"] as? [[String: Any]]) ?? [] }
        #expect(files.map { $0.compactMap { $0["name"] as? String } } == [["one.png"], ["two.png", "three.txt"], ["four.png"], ["five.png"]])
        let first = try #require(files.first?.first)
        #expect(first["id"] as? String == Self.attachment(1, name: "").id && first["type"] as? String == "image")
        #expect(first["size"] as? Int == 1000 && first["content-type"] as? String == "image/png")

        // And alice's cache has each once, searchable by name.
        let cached = try service.cache.history(dialogID: dialog.id)
        #expect(cached.count == 4)
        #expect(cached.map { $0.attachments.count }.sorted() == [1, 1, 1, 2])
        #expect(try service.cache.search("three").map(\.message.text) == ["two & three"])
    }
}
