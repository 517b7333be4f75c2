import Foundation
import Testing
import ClientConfiguration
import Diagnostics
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// How the chat engine files what arrives (docs/protocol.md §7), without a socket: the
/// events go straight to its `receive` functions; REST answers are scripted. We are user 1
/// of application 1; bob is 2.
final class ListenerFixture {
    static let privateID: DialogID = "6b0db884c4ca891d2141e1c9"
    static let groupID: DialogID = "6b0db895c4ca891d2141e1cc"
    static let newGroupID: DialogID = "6b0db899c4ca891d2141e1d0"
    static let now = 1_796_061_316

    /// What the engine told, for the tests to read.
    final class Heard {
        var messages: [CachedMessage] = []
        var notices: [String] = []
        var dialogNotices: [DialogNotice] = []
        var events: [ChatEngineEvent] = []

        func take(_ event: ChatEngineEvent) {
            events.append(event)
            switch event {
            case .heard(let batch): messages += batch.map(\.message)
            case .notice(let notice): notices.append(notice.description)
            case .dialogNotice(let notice): dialogNotices.append(notice)
            default: break
            }
        }
    }

    let directory: TemporaryDirectory
    let transport: ScriptedTransport
    let service: MessagingService
    let link = ScriptedChatLink()
    let engine: ChatEngine
    let heard = Heard()
    var messages: [CachedMessage] { heard.messages }
    var notices: [String] { heard.notices }
    var dialogNotices: [DialogNotice] { heard.dialogNotices }

    /// `known`: dialogs in the cache and heard when listening starts.
    init(known: [CachedDialog] = [], script: [ScriptedTransport.Reply] = [], settings: ChatEngine.Settings? = nil) throws {
        directory = try TemporaryDirectory()
        transport = ScriptedTransport(script)
        let credentials = AppCredentials(applicationId: 1, authKey: "k", authSecret: "s")
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: credentials, transport: transport)
        api.retryPolicy = .never
        let cache = try ChatCache(path: directory.path + "/cache.sqlite")
        try cache.upsertDialogs(known)
        service = MessagingService(api: api, cache: cache, me: 1)
        var hearing = ChatEngine.Settings()
        hearing.dialogs = .all
        engine = ChatEngine(link: link, service: service, settings: settings ?? hearing, handler: heard.take)
        for dialog in known { engine.feed(.dialogKnown(dialog)) }
    }

    static func dialog(_ id: DialogID, type: DialogType, occupants: [Int], name: String = "") -> CachedDialog {
        CachedDialog(id: id, type: type, name: name, occupantIDs: occupants, updatedAt: now, rawJSON: "{}")
    }
    static let withBob = dialog(privateID, type: .private, occupants: [1, 2])
    static let ops = dialog(groupID, type: .group, occupants: [1, 2, 3], name: "ops")

    static func dialogJSON(_ id: DialogID, type: Int, occupants: [Int], name: String? = nil) -> String {
        let nameMember = name.map { #""name":"\#($0)","# } ?? ""
        return #"{"_id":"\#(id)",\#(nameMember)"type":\#(type),"occupants_ids":\#(occupants),"user_id":2,"updated_at":"2026-11-30T17:55:19Z"}"#
    }
    static func page(_ items: [String]) -> String { #"{"total_entries":\#(items.count),"skip":0,"limit":100,"items":[\#(items.joined(separator: ","))]}"# }

    static func chat(from jid: String, id: String = "6b0db884edb3b3d9cddf1330", dialogID: DialogID? = nil, body: String = "hi") -> IncomingChatMessage {
        let from = ChatJID(parsing: jid)!
        return IncomingChatMessage(kind: .chat, id: id, from: from, senderUserID: from.userID, dialogID: dialogID, dateSent: now, body: body)
    }

    func cached(_ id: String) throws -> CachedMessage? { try service.cache.message(id: id) }

    /// One event as the connection hands it on: filed, then (the batch over) cached and handed on.
    func hear(_ message: IncomingChatMessage) { engine.receive(message); engine.storeArrivals() }
    func hear(_ carbon: IncomingCarbon) { engine.receive(carbon); engine.storeArrivals() }
    func hear(_ notification: IncomingSystemNotification) { engine.receive(notification); engine.storeArrivals() }
}

@Suite("Chat engine: filing what arrives", .serialized)
struct ListenerFilingTests {
    typealias F = ListenerFixture

    @Test func aMessageNamingNoDialogGoesToThePrivateDialogWithItsSender() throws {
        let f = try F(known: [F.withBob, F.ops])
        f.hear(F.chat(from: "2-1@localhost/gajim"))
        #expect(f.messages.map(\.dialogID) == [F.privateID])
        #expect(f.messages.first?.senderID == 2 && f.messages.first?.recipientID == 1)
        #expect(try f.cached("6b0db884edb3b3d9cddf1330")?.dialogID == F.privateID, "cached, so history and search have it")
        #expect(f.transport.requests.isEmpty, "the cache knew the dialog")
    }

    /// No dialog with that user yet: created over REST, as `send @login` does.
    @Test func withNoDialogYetThePrivateDialogIsCreatedOverREST() throws {
        let f = try F(script: [reply(200, F.page([])), reply(201, F.dialogJSON(F.privateID, type: 3, occupants: [2, 1]))])
        f.hear(F.chat(from: "2-1@localhost/gajim", body: "first ever"))
        #expect(f.transport.requests.map(\.method) == [.get, .post])
        let created = try JSONDecoder().decode(JSONValue.self, from: Data(f.transport.requests[1].body))
        #expect(created == ["occupants_ids": "2", "type": 3])
        #expect(f.messages.map(\.text) == ["first ever"])
        #expect(f.messages.first?.dialogID == F.privateID)
        #expect(try f.service.cache.dialog(id: F.privateID) != nil)
        // The next one finds it without asking.
        f.hear(F.chat(from: "2-1@localhost/gajim", id: "6b0db884edb3b3d9cddf1331", body: "second"))
        #expect(f.transport.requests.count == 2)
        #expect(f.messages.map(\.text) == ["first ever", "second"])
    }

    /// No id from the sender or the server: one is made here, so nothing is lost.
    @Test func aMessageWithoutAnIdIsStillShownAndCached() throws {
        let f = try F(known: [F.withBob])
        f.hear(F.chat(from: "2-1@localhost/gajim", id: "", body: "no id"))
        let message = try #require(f.messages.first)
        #expect(ObjectID(message.id) != nil)
        #expect(try f.cached(message.id)?.text == "no id")
    }

    @Test func aMessageFromSomeoneWhoIsNoUserIsReportedAndDropped() throws {
        let f = try F(known: [F.withBob])
        f.hear(F.chat(from: "ghost@localhost/x", body: "boo"))
        #expect(f.messages.isEmpty)
        #expect(f.notices.count == 1 && f.notices[0].contains("ghost@localhost"))
        #expect(f.transport.requests.isEmpty)
        // And the next real message still arrives.
        f.hear(F.chat(from: "2-1@localhost/r"))
        #expect(f.messages.count == 1)
    }

    @Test func aFailedDialogCreationIsReportedAndNothingElseBreaks() throws {
        let f = try F(script: [reply(200, F.page([])), reply(422, #"{"errors":{"occupants_ids":["are invalid"]}}"#)])
        f.hear(F.chat(from: "999-1@localhost/r"))
        #expect(f.messages.isEmpty)
        #expect(f.notices.count == 1 && f.notices[0].contains("user 999"), "\(f.notices)")
    }

    /// A 1:1 message cannot put itself into a group by naming it: it goes to the sender's private dialog.
    @Test func aOneToOneMessageNamingAGroupIsFiledWithItsSender() throws {
        let f = try F(known: [F.withBob, F.ops])
        f.hear(F.chat(from: "2-1@localhost/r", dialogID: F.groupID))
        #expect(f.messages.map(\.dialogID) == [F.privateID])
    }

    @Test func aOneToOneMessageFromOurselvesIsANoteToSelfNotNews() throws {
        let f = try F(known: [F.withBob])
        f.hear(F.chat(from: "1-1@localhost/other", dialogID: F.privateID))
        #expect(f.messages.isEmpty)
    }

    /// What another of our devices sent to bob: ours, in the dialog with bob, cached.
    @Test func aSentCarbonIsOurMessageToThePeer() throws {
        let f = try F(known: [F.withBob])
        let copy = IncomingChatMessage(kind: .chat, id: "6b0db884edb3b3d9cddf1340", from: ChatJID(parsing: "1-1@localhost/laptop")!,
                                       senderUserID: 1, dialogID: nil, dateSent: F.now, body: "from the laptop")
        f.hear(IncomingCarbon(direction: .sent, message: copy, peer: ChatJID(parsing: "2-1@localhost")))
        let message = try #require(f.messages.first)
        #expect(message.senderID == 1 && message.recipientID == 2 && message.dialogID == F.privateID)
        #expect(try f.cached("6b0db884edb3b3d9cddf1340")?.senderID == 1)
        // Shown even when this machine's cache had it already (sent from here).
        f.hear(IncomingCarbon(direction: .sent, message: copy, peer: ChatJID(parsing: "2-1@localhost")))
        #expect(f.messages.count == 2)
    }

    @Test func aReceivedCarbonIsTheirMessageToUs() throws {
        let f = try F(known: [F.withBob])
        let message = F.chat(from: "2-1@localhost/web", body: "to the laptop")
        f.hear(IncomingCarbon(direction: .received, message: message, peer: message.from))
        #expect(f.messages.map(\.senderID) == [2])
        // The same message heard directly too is shown once.
        f.hear(message)
        #expect(f.messages.count == 1)
    }

    /// A burst of events is one batch: nothing is handed on until it ends, then all of it
    /// is cached (one transaction) and handed on in the order it came, each message once,
    /// however often it was heard; ours from another device among them too.
    @Test func aBatchIsCachedTogetherThenHandedOnInOrderEachOnce() throws {
        let f = try F(known: [F.withBob, F.ops])
        let ids = (0..<5).map { "6b0db884edb3b3d9cddf14" + String(format: "%02x", $0) }
        for (n, id) in ids.enumerated() {
            f.engine.receive(F.chat(from: "2-1@localhost/web", id: id, dialogID: F.privateID, body: "burst \(n)"))
        }
        f.engine.receive(F.chat(from: "2-1@localhost/web", id: ids[1], dialogID: F.privateID, body: "burst 1"))
        let echo = IncomingChatMessage(kind: .groupchat, id: "6b0db884edb3b3d9cddf1450", from: ChatJID(parsing: "1_\(F.groupID)@muc.localhost/1")!,
                                       senderUserID: 1, dialogID: F.groupID, dateSent: F.now, body: "burst mine")
        f.engine.receive(echo)
        #expect(f.messages.isEmpty, "handed on once the batch is cached")
        f.engine.storeArrivals()
        #expect(f.messages.map(\.text) == ["burst 0", "burst 1", "burst 2", "burst 3", "burst 4", "burst mine"])
        #expect(try f.service.cache.search("burst").count == 6)
        f.hear(F.chat(from: "2-1@localhost/web", id: ids[0], dialogID: F.privateID, body: "burst 0"))
        #expect(f.messages.count == 6, "a message heard again later is not news")
    }

    /// A room echoes what we posted from another device: ours, in the group.
    @Test func ourOwnGroupMessageFromAnotherDeviceIsShown() throws {
        let f = try F(known: [F.ops])
        let echo = IncomingChatMessage(kind: .groupchat, id: "6b0db884edb3b3d9cddf1350", from: ChatJID(parsing: "1_\(F.groupID)@muc.localhost/1")!,
                                       senderUserID: 1, dialogID: F.groupID, dateSent: F.now, body: "posted elsewhere")
        f.hear(echo)
        #expect(f.messages.map(\.senderID) == [1])
        #expect(f.messages.first?.recipientID == 0)
    }

    // MARK: system notifications

    /// "bob added you to a new group": the dialog comes from the server, is cached and
    /// announced; the room join is tried at once (here it fails: no connection).
    @Test func aNotificationOfANewGroupFetchesCachesAndAnnouncesIt() throws {
        let f = try F(known: [F.withBob], script: [reply(200, F.page([F.dialogJSON(F.newGroupID, type: 2, occupants: [2, 1], name: "new")]))])
        f.hear(IncomingSystemNotification(id: nil, from: ChatJID(parsing: "2-1@localhost/r"), senderUserID: 2, kind: .created,
                                                      dialogID: F.newGroupID, name: "forged name", dialogType: 2, occupantIDs: [1, 2], fields: [:]))
        #expect(f.transport.requests.first?.url.contains("_id%5Bin%5D=\(F.newGroupID)") == true)
        let notice = try #require(f.dialogNotices.first)
        #expect(notice.change == .added && notice.actorID == 2)
        #expect(notice.dialog.name == "new", "the server's word, not the headline's")
        #expect(try f.service.cache.dialog(id: F.newGroupID)?.type == .group)
        #expect(f.engine.dialogs[F.newGroupID] != nil, "followed from now on")
        #expect(f.notices.contains { $0.contains("could not join new") }, "\(f.notices)")
    }

    @Test func aNotificationAboutADialogTheServerDoesNotListForUsIsIgnored() throws {
        let f = try F(script: [reply(200, F.page([])), reply(200, F.page([F.dialogJSON(F.newGroupID, type: 2, occupants: [2, 3])]))])
        for _ in 0..<2 {
            f.hear(IncomingSystemNotification(id: nil, from: nil, senderUserID: nil, kind: .created, dialogID: F.newGroupID,
                                                          name: nil, dialogType: nil, occupantIDs: [1], fields: [:]))
        }
        #expect(f.dialogNotices.isEmpty && f.notices.isEmpty)
        #expect(try f.service.cache.dialog(id: F.newGroupID) == nil, "not ours: not cached")
        #expect(f.engine.dialogs[F.newGroupID] == nil)
    }

    @Test func aNotificationAboutAKnownDialogIsAnUpdate() throws {
        let f = try F(known: [F.withBob], script: [reply(200, F.page([F.dialogJSON(F.privateID, type: 3, occupants: [1, 2])]))])
        f.hear(IncomingSystemNotification(id: nil, from: ChatJID(parsing: "2-1@localhost"), senderUserID: 2, kind: .updated,
                                                      dialogID: F.privateID, name: nil, dialogType: 3, occupantIDs: [1, 2], fields: [:]))
        #expect(f.dialogNotices.map(\.change) == [.updated])
        #expect(f.notices.isEmpty, "a private dialog has no room to join")
    }
}
