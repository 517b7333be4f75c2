// The twins checked against each other (docs/architecture.md): what the sandbox forwards
// (carbons, headlines, a room's answer to a join) read back by the client's own parser, through libstrophe.
import Testing
import SandboxWebSocket
import SandboxXMPP
@testable import XMPPTransport

@Suite("Forwarded stanzas, read by the client", .serialized)
struct ForwardedStanzaCrossTests {
    private func read(_ xml: String, as userId: Int, resource: String) throws -> ChatEvent? {
        let stanza = try #require(StanzaElement(parsingWithStrophe: xml), "libstrophe could not parse \(xml)")
        return ChatEvent.parse(stanza, receivedAt: 0, ownJID: ChatJID(parsing: "\(userId)-\(XMPPTestConstants.applicationId)@localhost/\(resource)"))
    }

    private func enableCarbons(_ client: RawXMPPClient) {
        client.send("<iq type='set' id='c'><enable xmlns='urn:xmpp:carbons:2'/></iq>")
        #expect(client.read(untilContains: "id='c'"))
        client.clear()
    }

    @Test func theSandboxsCarbonIsOurMessageAndAForgedOneIsNot() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let desk = try f.connect(ann, "ann", resource: "desk"), phone = try f.connect(ann, "ann", resource: "phone")
        let bobClient = try f.connect(bob, "bob", resource: "b")
        enableCarbons(phone)
        try f.enableAcks(desk)
        desk.send("<message type='chat' to='\(f.jid(bob))' id='\(objectId(31))'><body>sent from the desk</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(desk, expecting: 1))
        #expect(phone.read(untilContains: "</message>"))
        guard case .carbon(let copy)? = try read(phone.received, as: ann, resource: "phone") else {
            Issue.record("not a carbon: \(phone.received)"); return
        }
        #expect(copy.direction == .sent && copy.message.senderUserID == ann && copy.peer?.userID == bob)
        #expect(copy.message.body == "sent from the desk" && copy.message.id == objectId(31))
        #expect(copy.message.dialogID?.rawValue == (try f.privateDialog(ann, bob))?.id)
        phone.clear()

        // Bob wraps words in a carbon of his own: the sandbox passes it on from him, and it stays his.
        bobClient.send("<message type='chat' to='\(f.jid(ann))/phone'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' from='\(f.jid(ann))/desk' to='\(f.jid(bob))' type='chat'><body>I owe bob</body></message></forwarded></sent></message>")
        #expect(phone.read(untilContains: "I owe bob"))
        #expect(phone.received.contains("from='\(f.jid(bob))/b'"))
        #expect(try read(phone.received, as: ann, resource: "phone") == nil, "a forgery is ignored whole")
    }

    @Test func theSandboxsHeadlineIsASystemNotification() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let annClient = try f.connect(ann, "ann", resource: "a"), bobClient = try f.connect(bob, "bob", resource: "b")
        let dialog = objectId(600)
        annClient.send("<message type='headline' to='\(f.jid(bob))' id='\(objectId(601))'><extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier><notification_type>2</notification_type><dialog_id>\(dialog)</dialog_id><name>ops &amp; co</name><type>2</type><occupants_ids>\(ann), \(bob)</occupants_ids></extraParams></message>")
        #expect(bobClient.read(untilContains: "</message>"))
        guard case .systemNotification(let n)? = try read(bobClient.received, as: bob, resource: "b") else {
            Issue.record("not a notification: \(bobClient.received)"); return
        }
        #expect(n.kind == .updated && n.dialogID.rawValue == dialog && n.name == "ops & co" && n.dialogType == 2)
        #expect(n.occupantIDs == [ann, bob] && n.senderUserID == ann && n.id == objectId(601))
    }

    /// A join's whole answer (others, ourselves, history, subject) as chatctl reads it: only our
    /// own presence answers the join, history messages are messages of the group under their
    /// stored ids, and the subject is no message at all.
    @Test func theSandboxsAnswerToAJoinIsReadAsChatctlExpects() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob], name: "ops")
        let older = try f.post("older", in: dialog, from: ann), newer = try f.post("newer", in: dialog, from: ann)
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        a.send("<presence to='\(f.room(dialog))/\(ann)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
        #expect(a.read(untilContains: "</subject>"))
        b.send("<presence to='\(f.room(dialog))/\(bob)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='5'/></x></presence>")
        #expect(b.read(untilContains: "</subject>"))
        let stanzas = try WebSocketFraming.messages(fromStream: b.received).map {
            try #require(StanzaElement(parsingWithStrophe: $0), "libstrophe could not parse \($0)")
        }
        let presences = stanzas.compactMap(RoomPresence.init)
        #expect(presences.map(\.nick) == [String(ann), String(bob)])
        #expect(presences.map(\.isSelf) == [false, true] && presences.allSatisfy { $0.errorCondition == nil })
        let events = stanzas.filter { $0.name == "message" }.map { ChatEvent.parse($0, receivedAt: 0) }
        #expect(events.count == 3)
        guard events.count == 3, case .message(let first)? = events[0], case .message(let second)? = events[1] else {
            Issue.record("not two messages then the subject: \(events)"); return
        }
        #expect([first.id, second.id] == [older, newer] && [first.body, second.body] == ["older", "newer"])
        #expect(first.kind == .groupchat && first.dialogID?.rawValue == dialog && first.senderUserID == ann)
        #expect(events[2] == nil, "the subject is no message")
    }
}
