// Messaging over XMPP (docs/protocol.md §7) against an in-process server with a real in-memory
// database: 1:1 routing and storage, MUC rooms, markers, typing and stream-management acks.
import Foundation
import Testing
import SandboxHTTP
import SandboxREST
@testable import SandboxStorage
@testable import SandboxXMPP
import SQLiteStore

/// A server whose users live in its database, and raw clients logged in as them.
final class MessagingFixture {
    typealias C = XMPPTestConstants
    let server: XMPPTestServer

    init(webSockets: Bool = false, limits: XMPPServer.Limits = XMPPServer.Limits()) throws {
        server = try XMPPTestServer(limits: limits, realUsers: true, webSockets: webSockets)
    }

    /// A new user (password `password-{login}`); returns the id.
    func user(_ login: String) throws -> Int {
        try server.withStorage { _, database, _ in try database.insertUser(NewUser(login: login, password: "password-\(login)")).id }
    }

    /// A stream of `userId` (logged in as `login`) that has authenticated and may now bind or resume.
    func authenticate(_ userId: Int, _ login: String) throws -> RawXMPPClient {
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        guard client.read(untilContains: "</stream:features>") else { throw TestFailure("no features") }
        client.send(C.plain("\(userId)-\(C.applicationId)", "password-\(login)"))
        guard client.read(untilContains: "<success") else { throw TestFailure("login failed: \(client.received)") }
        client.clear()
        client.send(C.header)
        guard client.read(untilContains: "</stream:features>") else { throw TestFailure("no post-auth features") }
        client.clear()
        return client
    }

    /// A bound stream of `userId` (logged in as `login`) on `resource`.
    func connect(_ userId: Int, _ login: String, resource: String) throws -> RawXMPPClient {
        let client = try authenticate(userId, login)
        client.send("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>\(resource)</resource></bind></iq>")
        guard client.read(untilContains: "</iq>") else { throw TestFailure("bind failed") }
        client.clear()
        return client
    }

    /// Enables stream management and returns once it is on.
    func enableAcks(_ client: RawXMPPClient) throws {
        client.send("<enable xmlns='urn:xmpp:sm:3'/>")
        guard client.read(untilContains: "<enabled") else { throw TestFailure("no sm") }
        client.clear()
    }

    /// Asks for an ack and waits for `<a h='expected'/>`.
    func ack(_ client: RawXMPPClient, expecting h: Int) -> Bool {
        client.send("<r xmlns='urn:xmpp:sm:3'/>")
        return client.read(untilContains: "<a xmlns='urn:xmpp:sm:3' h='\(h)'/>")
    }

    func jid(_ userId: Int) -> String { "\(userId)-\(C.applicationId)@\(C.domain)" }
    func room(_ dialogId: String) -> String { "\(C.applicationId)_\(dialogId)@muc.\(C.domain)" }

    func message(_ id: String) throws -> MessageSnapshot? {
        try server.withStorage { store, _, _ in try store.message(id: id).map(MessageSnapshot.init) }
    }

    func messageCount() throws -> Int {
        try server.withStorage { store, _, _ in try store.db.queryFirst("SELECT COUNT(*) FROM messages") { $0.int(0) } ?? 0 }
    }

    func privateDialog(_ a: Int, _ b: Int) throws -> DialogSnapshot? {
        try server.withStorage { store, _, _ in try store.privateDialog(between: a, b, viewer: b).map(DialogSnapshot.init) }
    }

    func group(owner: Int, _ others: [Int], name: String = "room", type: DialogKind = .group) throws -> String {
        try server.withStorage { store, _, _ in
            try store.createDialog(type: type, name: name, photo: nil, ownerId: owner, occupants: others).id
        }
    }

    /// Stores a message in a dialog as if `sender` had sent it; returns its id.
    func post(_ body: String, in dialogId: String, from sender: Int) throws -> String {
        try server.withStorage { store, _, _ in
            guard let dialog = try store.dialog(id: dialogId, viewer: nil) else { throw TestFailure("no dialog \(dialogId)") }
            return try store.insertMessage(NewMessage(id: nil, dialogId: dialogId, body: body, senderId: sender), in: dialog).id
        }
    }

    func unread(_ dialogId: String, for userId: Int) throws -> Int {
        try server.withStorage { store, _, _ in try store.unreadCount(dialogId: dialogId, userId: userId) }
    }

    /// One REST call through the route table of a `SandboxAPI` over the same database,
    /// delivering live through the running XMPP server.
    func rest(_ method: HTTPRequest.Method, _ path: String, query: String? = nil, form: String? = nil, as userId: Int) throws -> (Int, String) {
        try server.withStorage { _, database, xmpp in
            let api = SandboxAPI(database: database, credentials: ApplicationCredentials(applicationId: C.applicationId, authKey: "k", authSecret: "s"),
                                 chatDomain: C.domain)
            api.liveDelivery = { message, dialog in xmpp.deliver(message, in: dialog) }
            api.occupantsRemoved = { dialogId, users, actor in xmpp.removeFromRoom(dialogId, users: users, by: actor) }
            let token = try database.createSession(applicationId: C.applicationId, userId: userId, nonce: 1, timestamp: 1).token
            var headers = ["QB-Token": token]
            if form != nil { headers["Content-Type"] = "application/x-www-form-urlencoded" }
            let request = try RESTRequest(method: method, path: path, headers: headers, query: query, body: Array((form ?? "").utf8))
            let response = api.makeRouter().handle(request)
            return (response.status, response.body?.serialized ?? "")
        }
    }
}

/// Sendable copies of stored records, for crossing back from the loop thread.
struct MessageSnapshot: Sendable {
    var id, dialogId, body: String
    var originId: String?
    var senderId, recipientId, dateSent: Int
    var readIds, deliveredIds: [Int]
    var custom: [String: String]
    var attachmentIds: [String]
    init(_ m: MessageRecord) {
        id = m.id; dialogId = m.dialogId; body = m.body; originId = m.originId; senderId = m.senderId; recipientId = m.recipientId
        dateSent = m.dateSent; readIds = m.readIds; deliveredIds = m.deliveredIds
        custom = Dictionary(m.custom, uniquingKeysWith: { a, _ in a })
        attachmentIds = m.attachments.compactMap { $0.fields.first { $0.0 == "id" }?.1 }
    }
}

struct DialogSnapshot: Sendable {
    var id: String
    var type: Int
    var occupantIds: [Int]
    var lastMessageId: String?
    var lastMessage: String?
    init(_ d: DialogRecord) {
        id = d.id; type = d.type.rawValue; occupantIds = d.occupantIds; lastMessageId = d.lastMessageId; lastMessage = d.lastMessage
    }
}

/// The text of `<name>…</name>` in `xml`, first occurrence.
func elementText(_ name: String, in xml: String) -> String? {
    guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex) else { return nil }
    return String(xml[open.upperBound..<close.lowerBound])
}

func occurrences(_ needle: String, in haystack: String) -> Int { haystack.components(separatedBy: needle).count - 1 }

func objectId(_ n: Int) -> String {
    let hex = String(n, radix: 16)
    return "5f00000000000000" + String(repeating: "0", count: 8 - hex.count) + hex
}

@Suite("XMPP 1:1 messaging", .serialized)
struct XMPPDirectMessagingTests {
    @Test func chatReachesEveryResourceWithDialogIdAndDateSentAndIsStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let phone = try f.connect(bob, "bob", resource: "phone"), desk = try f.connect(bob, "bob", resource: "desk")
        let sender = try f.connect(ann, "ann", resource: "cli")
        try f.enableAcks(sender)
        let id = objectId(1)
        let before = Int(Date().timeIntervalSince1970)
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(id)'><body>hi &amp; bye</body><markable xmlns='urn:xmpp:chat-markers:0'/><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><color>red</color><attachment type='image' id='blob1' name='a.png'/></extraParams></message>")
        #expect(f.ack(sender, expecting: 1))
        let dialog = try #require(try f.privateDialog(ann, bob))
        #expect(dialog.type == 3 && Set(dialog.occupantIds) == [ann, bob])
        #expect(dialog.lastMessageId == id && dialog.lastMessage == "hi & bye")
        for client in [phone, desk] {
            #expect(client.read(untilContains: "</message>"))
            let got = client.received
            #expect(got.contains("from='\(f.jid(ann))/cli'"))
            #expect(got.contains("id='\(id)'"))
            #expect(got.contains("<body>hi &amp; bye</body>"))
            #expect(elementText("dialog_id", in: got) == dialog.id)
            let dateSent = try #require(elementText("date_sent", in: got).flatMap { Int($0) })
            #expect(dateSent >= before && dateSent <= before + 5)
            #expect(got.contains("<color>red</color>") && got.contains("id='blob1'") && got.contains("<markable"))
        }
        let stored = try #require(try f.message(id))
        #expect(stored.dialogId == dialog.id && stored.body == "hi & bye")
        #expect(stored.senderId == ann && stored.recipientId == bob)
        #expect(stored.custom["color"] == "red" && stored.attachmentIds == ["blob1"])
        #expect(try f.unread(dialog.id, for: bob) == 1)
        #expect(try f.unread(dialog.id, for: ann) == 0)
    }

    @Test func aResentIdIsStoredAndDeliveredOnceButAckedEachTime() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "r")
        let sender = try f.connect(ann, "ann", resource: "s")
        try f.enableAcks(sender)
        let stanza = "<message type='chat' to='\(f.jid(bob))' id='\(objectId(7))'><body>once</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
        sender.send(stanza)
        #expect(f.ack(sender, expecting: 1))
        // As after a reconnect: a new stream sends the same stanza again.
        let again = try f.connect(ann, "ann", resource: "s2")
        try f.enableAcks(again)
        again.send(stanza)
        again.send(stanza)
        #expect(f.ack(again, expecting: 2))
        #expect(try f.messageCount() == 1)
        receiver.read(until: { _ in false }, timeout: 0.5)
        #expect(occurrences("<body>once</body>", in: receiver.received) == 1)
    }

    /// An ObjectId another sender already stored a message under: this one is stored and
    /// delivered under a new id (the INSERT meets the stored one; docs/protocol.md §7).
    @Test func anIdAnotherSenderStoredUnderGetsANewOne() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(a)
        try f.enableAcks(b)
        let taken = objectId(8)
        a.send("<message type='chat' to='\(f.jid(bob))' id='\(taken)'><body>first</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(a, expecting: 1))
        #expect(b.read(untilContains: "first"))
        a.clear()
        b.send("<message type='chat' to='\(f.jid(ann))' id='\(taken)'><body>second</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(b, expecting: 1))
        #expect(a.read(untilContains: "second"))
        #expect(try f.messageCount() == 2)
        let renamed = try #require(attribute("id", in: a.received))
        #expect(renamed != taken && ObjectIdGenerator.isValid(renamed))
        #expect(try f.message(taken)?.body == "first" && f.message(renamed)?.body == "second")
        #expect(try f.message(renamed)?.senderId == bob)
    }

    @Test func withoutSaveToHistoryItIsDeliveredButNotStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "r")
        let sender = try f.connect(ann, "ann", resource: "s")
        sender.send("<message type='chat' to='\(f.jid(bob))/r' id='\(objectId(3))'><body>ephemeral</body><extraParams xmlns='jabber:client'><save_to_history>0</save_to_history></extraParams></message>")
        #expect(receiver.read(untilContains: "<body>ephemeral</body>"))
        #expect(elementText("date_sent", in: receiver.received) == nil, "routed as sent")
        #expect(try f.messageCount() == 0)
        #expect(try f.privateDialog(ann, bob) == nil)
    }

    @Test func anOfflineRecipientFindsTheMessageInHistory() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let sender = try f.connect(ann, "ann", resource: "s")
        try f.enableAcks(sender)
        let id = objectId(42)
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(id)'><body>while you were out</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(sender, expecting: 1))
        #expect(!sender.received.contains("type='error'"))
        let dialog = try #require(try f.privateDialog(ann, bob))
        let (status, body) = try f.rest(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog.id)", as: bob)
        #expect(status == 200)
        #expect(body.contains(#""_id":"\#(id)""#) && body.contains(#""message":"while you were out""#))
        let (_, dialogs) = try f.rest(.get, "/chat/Dialog.json", as: bob)
        #expect(dialogs.contains(#""_id":"\#(dialog.id)""#))
    }

    @Test func unknownUsersAndRoomsBounceAndNothingIsStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let sender = try f.connect(ann, "ann", resource: "s")
        sender.send("<message type='chat' to='999-7@localhost' id='u1'><body>x</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(sender.read(untilContains: "</message>"))
        #expect(sender.received.contains("type='error'") && sender.received.contains("id='u1'"))
        #expect(sender.received.contains("<service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>"))
        sender.clear()
        sender.send("<message type='groupchat' to='7_0123456789abcdef01234567@muc.localhost' id='u2'><body>x</body></message>")
        #expect(sender.read(untilContains: "</message>"))
        #expect(sender.received.contains("id='u2'") && sender.received.contains("<service-unavailable"))
        sender.clear()
        sender.send("<message type='chat' to='1-7@elsewhere.example' id='u3'><body>x</body></message>")
        #expect(sender.read(untilContains: "</message>"))
        #expect(sender.received.contains("id='u3'") && sender.received.contains("<service-unavailable"))
        #expect(try f.messageCount() == 0)
    }

    @Test func markersAreForwardedAndDisplayedMarksRead() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let annClient = try f.connect(ann, "ann", resource: "a")
        let bobClient = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(bobClient)
        let id = objectId(9)
        annClient.send("<message type='chat' to='\(f.jid(bob))' id='\(id)'><body>read me</body><markable xmlns='urn:xmpp:chat-markers:0'/><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(bobClient.read(untilContains: "read me"))
        let dialog = try #require(elementText("dialog_id", in: bobClient.received))
        #expect(try f.unread(dialog, for: bob) == 1)
        bobClient.send("<message type='chat' to='\(f.jid(ann))' id='r1'><received xmlns='urn:xmpp:chat-markers:0' id='\(id)'/><extraParams xmlns='jabber:client'><dialog_id>\(dialog)</dialog_id></extraParams></message>")
        #expect(f.ack(bobClient, expecting: 1))
        #expect(annClient.read(untilContains: "<received xmlns='urn:xmpp:chat-markers:0' id='\(id)'/>"))
        #expect(annClient.received.contains("from='\(f.jid(bob))/b'"))
        var stored = try #require(try f.message(id))
        #expect(stored.deliveredIds.contains(bob) && !stored.readIds.contains(bob))
        bobClient.send("<message type='chat' to='\(f.jid(ann))' id='r2'><displayed xmlns='urn:xmpp:chat-markers:0' id='\(id)'/><extraParams xmlns='jabber:client'><dialog_id>\(dialog)</dialog_id></extraParams></message>")
        #expect(f.ack(bobClient, expecting: 2))
        #expect(annClient.read(untilContains: "<displayed xmlns='urn:xmpp:chat-markers:0' id='\(id)'/>"))
        stored = try #require(try f.message(id))
        #expect(stored.readIds.contains(bob))
        #expect(try f.unread(dialog, for: bob) == 0)
        // Typing is passed on and never stored.
        bobClient.send("<message type='chat' to='\(f.jid(ann))'><composing xmlns='http://jabber.org/protocol/chatstates'/></message>")
        #expect(annClient.read(untilContains: "<composing xmlns='http://jabber.org/protocol/chatstates'/>"))
        #expect(try f.messageCount() == 1)
    }

    @Test func theSendersOtherResourcesWithCarbonsGetSentCopies() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let sender = try f.connect(ann, "ann", resource: "send")
        let watcher = try f.connect(ann, "ann", resource: "watch"), plain = try f.connect(ann, "ann", resource: "plain")
        let receiver = try f.connect(bob, "bob", resource: "b")
        watcher.send("<iq type='set' id='c'><enable xmlns='urn:xmpp:carbons:2'/></iq>")
        #expect(watcher.read(untilContains: "id='c'"))
        watcher.clear()
        try f.enableAcks(sender)
        let id = objectId(11)
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(id)'><body>copied</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(objectId(12))'><body>secret</body><private xmlns='urn:xmpp:carbons:2'/></message>")
        #expect(f.ack(sender, expecting: 2))
        #expect(receiver.read(untilContains: "secret"))
        #expect(watcher.read(untilContains: "</sent>"))
        let copy = watcher.received
        #expect(copy.contains("<message from='\(f.jid(ann))' to='\(f.jid(ann))/watch' type='chat'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client'"))
        #expect(copy.contains("from='\(f.jid(ann))/send'") && copy.contains("<body>copied</body>") && copy.contains("id='\(id)'"))
        #expect(elementText("dialog_id", in: copy) != nil)
        watcher.read(until: { _ in false }, timeout: 0.3)
        #expect(!watcher.received.contains("secret"))
        plain.read(until: { _ in false }, timeout: 0.2)
        #expect(!plain.received.contains("copied") && !sender.received.contains("<sent"))
    }

    @Test func anAckAfterNMessagesCountsThemAllAndAllAreStoredByThen() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let sender = try f.connect(ann, "ann", resource: "s")
        try f.enableAcks(sender)
        let n = 25
        let burst = (1...n).map { i in
            "<message type='chat' to='\(f.jid(bob))' id='\(objectId(100 + i))'><body>n\(i)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
        }.joined()
        sender.send(burst + "<r xmlns='urn:xmpp:sm:3'/>")
        #expect(sender.read(untilContains: "<a xmlns='urn:xmpp:sm:3' h='\(n)'/>"))
        #expect(try f.messageCount() == n)
        // In send order, though they share a second.
        let dialog = try #require(try f.privateDialog(ann, bob))
        let (_, history) = try f.rest(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog.id)&mark_as_read=0", as: bob)
        let order = (1...n).compactMap { history.range(of: #""message":"n\#($0)""#)?.lowerBound }
        #expect(order.count == n && order == order.sorted())
    }

    @Test func oversizeBodiesAreRefusedWithoutClosingTheStream() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let sender = try f.connect(ann, "ann", resource: "s")
        sender.send("<message type='chat' to='\(f.jid(bob))' id='big'><body>" + String(repeating: "a", count: ChatStore.maxMessageBytes + 1) + "</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message><iq type='get' id='after'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(sender.read(untilContains: "id='after'"))
        #expect(sender.received.contains("id='big'") && sender.received.contains("<not-acceptable"))
        #expect(try f.messageCount() == 0)
    }
}

@Suite("XMPP group chat", .serialized)
struct XMPPGroupChatTests {
    private func join(_ f: MessagingFixture, _ client: RawXMPPClient, _ dialogId: String, as userId: Int) -> Bool {
        client.send("<presence to='\(f.room(dialogId))/\(userId)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
        return client.read(untilContains: "<status code='110'/>")
    }

    @Test func joiningAnswersOccupantsAndSelfPresenceWithStatus110() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, a, dialog, as: ann))
        #expect(a.received.contains("from='\(f.room(dialog))/\(ann)'"))
        // Ann owns the dialog; the room is non-anonymous (100) and this is her own presence (110).
        #expect(a.received.contains("<x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='owner' role='participant' jid='\(f.jid(ann))/a'/><status code='110'/><status code='100'/></x>"), "110 first: QuickBlox's SDKs read only the first status")
        a.clear()
        #expect(join(f, b, dialog, as: bob))
        // Bob hears about Ann before his own presence; Ann hears about Bob.
        let annPresence = try #require(b.received.range(of: "from='\(f.room(dialog))/\(ann)'"))
        let selfPresence = try #require(b.received.range(of: "<status code='110'/>"))
        #expect(annPresence.lowerBound < selfPresence.lowerBound)
        #expect(b.received.contains("<item affiliation='owner' role='participant' jid='\(f.jid(ann))/a'/>"))
        #expect(a.read(untilContains: "from='\(f.room(dialog))/\(bob)'"))
        #expect(a.received.contains("<item affiliation='member' role='participant' jid='\(f.jid(bob))/b'/></x>"))
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) } == [ann, bob])
    }

    @Test func nonOccupantsCannotJoinOrPost() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), eve = try f.user("eve")
        let dialog = try f.group(owner: ann, [])
        let e = try f.connect(eve, "eve", resource: "e")
        e.send("<presence id='p1:join' to='\(f.room(dialog))/\(eve)'><x xmlns='http://jabber.org/protocol/muc'/></presence>")
        #expect(e.read(untilContains: "</presence>"))
        #expect(e.received.contains("type='error'") && e.received.contains("<registration-required xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>"))
        #expect(!e.received.contains("code='110'"))
        // What QuickBlox's SDK reads of a refused join: its own id, the MUC <x/>, the legacy code 500 and a text.
        #expect(e.received.contains("id='p1:join'><x xmlns='http://jabber.org/protocol/muc'/><error code='500' type='auth'>"))
        #expect(e.received.contains("<text xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'>You are not an occupant of this dialog</text>"))
        e.clear()
        e.send("<presence id='p2:join' to='\(f.room("0123456789abcdef01234567"))/\(eve)'><x xmlns='http://jabber.org/protocol/muc'/></presence>")
        #expect(e.read(untilContains: "</presence>"))
        #expect(e.received.contains("id='p2:join'><x xmlns='http://jabber.org/protocol/muc'/><error code='500' type='cancel'><item-not-found"))
        e.clear()
        e.send("<message type='groupchat' to='\(f.room(dialog))' id='\(objectId(5))'><body>let me in</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(e.read(untilContains: "</message>"))
        #expect(e.received.contains("type='error'") && e.received.contains("<forbidden xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>"))
        #expect(try f.messageCount() == 0)
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) }.isEmpty)
    }

    @Test func groupchatFansOutToEveryJoinedResourceIncludingTheSenderAndIsStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat"), dan = try f.user("dan")
        let dialog = try f.group(owner: ann, [bob, cat, dan])
        let a = try f.connect(ann, "ann", resource: "a")
        let b1 = try f.connect(bob, "bob", resource: "b1"), b2 = try f.connect(bob, "bob", resource: "b2")
        let c = try f.connect(cat, "cat", resource: "c")
        let d = try f.connect(dan, "dan", resource: "d")   // an occupant who has not joined
        for (client, user) in [(a, ann), (b1, bob), (b2, bob), (c, cat)] {
            #expect(join(f, client, dialog, as: user))
        }
        for client in [a, b1, b2, c] { client.read(until: { _ in false }, timeout: 0.2); client.clear() }
        try f.enableAcks(a)
        let id = objectId(77)
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='\(id)'><body>hello room</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><priority>high</priority></extraParams></message>")
        #expect(f.ack(a, expecting: 1))
        for client in [a, b1, b2, c] {
            #expect(client.read(untilContains: "hello room"))
            let got = client.received
            #expect(got.contains("type='groupchat'") && got.contains("from='\(f.room(dialog))/\(ann)'") && got.contains("id='\(id)'"))
            #expect(elementText("dialog_id", in: got) == dialog && elementText("date_sent", in: got) != nil)
            #expect(got.contains("<priority>high</priority>"))
        }
        d.read(until: { _ in false }, timeout: 0.3)
        #expect(!d.received.contains("hello room"))
        let stored = try #require(try f.message(id))
        #expect(stored.dialogId == dialog && stored.senderId == ann && stored.recipientId == 0)
        #expect(try f.unread(dialog, for: cat) == 1 && f.unread(dialog, for: dan) == 1)
    }

    @Test func leavingAndDisconnectingLeaveTheRoom() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let dialog = try f.group(owner: ann, [bob, cat])
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        var c: RawXMPPClient? = try f.connect(cat, "cat", resource: "c")
        #expect(join(f, a, dialog, as: ann) && join(f, b, dialog, as: bob) && join(f, c!, dialog, as: cat))
        a.read(until: { _ in false }, timeout: 0.2)
        a.clear()
        b.clear()
        b.send("<presence to='\(f.room(dialog))/\(bob)' type='unavailable'/>")
        #expect(b.read(untilContains: "type='unavailable'"))
        #expect(b.received.contains("<status code='110'/>"))
        #expect(a.read(untilContains: "from='\(f.room(dialog))/\(bob)' to='\(f.jid(ann))/a' type='unavailable'"))
        b.clear()
        b.send("<message type='groupchat' to='\(f.room(dialog))' id='late'><body>still here?</body></message>")
        #expect(b.read(untilContains: "</message>"))
        #expect(b.received.contains("type='error'") && b.received.contains("<not-acceptable"))
        c = nil   // the socket closes
        #expect(a.read(untilContains: "from='\(f.room(dialog))/\(cat)' to='\(f.jid(ann))/a' type='unavailable'"))
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) } == [ann])
    }

    @Test func anOccupantPulledAfterJoiningStopsReceiving() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, a, dialog, as: ann) && join(f, b, dialog, as: bob))
        try f.server.withStorage { store, _, _ in try store.updateDialog(id: dialog, name: nil, photo: nil, push: [], pull: [bob]) }
        b.clear()
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='\(objectId(1))'><body>members only</body></message>")
        #expect(a.read(untilContains: "members only"))
        b.read(until: { _ in false }, timeout: 0.3)
        #expect(!b.received.contains("members only"))
        b.send("<message type='groupchat' to='\(f.room(dialog))' id='x'><body>me too</body></message>")
        #expect(b.read(untilContains: "<forbidden"))
    }

    /// Ann's group with Bob, Bob joined to its room as resource "b" (nothing received yet).
    private func groupWithBobJoined() throws -> (f: MessagingFixture, ann: Int, group: String, b: RawXMPPClient) {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let group = try f.group(owner: ann, [bob])
        let b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, b, group, as: bob))
        b.clear()
        return (f, ann, group, b)
    }

    @Test func restSendToChatReachesOnlyJoinedOccupants() throws {
        let (f, ann, group, b) = try groupWithBobJoined()
        let (status, body) = try f.rest(.post, "/chat/Message.json", form: "chat_dialog_id=\(group)&message=via+rest&send_to_chat=1", as: ann)
        #expect(status == 201)
        #expect(b.read(untilContains: "via rest"))
        #expect(b.received.contains("type='groupchat'") && b.received.contains("from='\(f.room(group))/\(ann)'"))
        #expect(elementText("dialog_id", in: b.received) == group)
        #expect(body.contains(#""message":"via rest""#))
        // Without send_to_chat it is only stored.
        b.clear()
        _ = try f.rest(.post, "/chat/Message.json", form: "chat_dialog_id=\(group)&message=quiet", as: ann)
        b.read(until: { _ in false }, timeout: 0.3)
        #expect(!b.received.contains("quiet"))
        #expect(try f.messageCount() == 2)
    }

    /// A body stored over REST may hold what XML cannot carry; delivered live it keeps
    /// its CR (as `&#13;`) and gets U+FFFD for the control, and the stream stays up.
    @Test func restBodyWithCRAndControlsKeepsTheStreamWellFormed() throws {
        let (f, ann, group, b) = try groupWithBobJoined()
        let (status, _) = try f.rest(.post, "/chat/Message.json",
                                     form: "chat_dialog_id=\(group)&message=a%0D%0Ab%01c+%1B%5B0m&send_to_chat=1", as: ann)
        #expect(status == 201)
        #expect(b.read(untilContains: "</message>"))
        #expect(b.received.contains("<body>a&#13;\nb\u{FFFD}c \u{FFFD}[0m</body>"))
        #expect(!b.received.unicodeScalars.contains { $0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value) })
    }
}
