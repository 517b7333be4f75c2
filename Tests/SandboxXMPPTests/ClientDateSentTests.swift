// The `date_sent` a sending client puts in `extraParams` is the stored message's, as on the
// hosted service (docs/protocol.md §7): in history and in the copies delivered.
import Foundation
import Testing
import TestSupport
import SandboxStorage

@Suite("XMPP client date_sent", .serialized)
struct ClientDateSentTests {
    private func storedDate(_ f: MessagingFixture, _ id: String) throws -> Int? {
        try f.server.withStorage { store, _, _ in try store.message(id: id)?.dateSent }
    }

    @Test func aPrivateMessageKeepsTheSendersDate() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "r")
        let sender = try f.connect(ann, "ann", resource: "s")
        try f.enableAcks(sender)
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(objectId(31))'><body>dated</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><date_sent>1473075233</date_sent></extraParams></message>")
        #expect(f.ack(sender, expecting: 1))
        #expect(receiver.read(untilContains: "</message>"))
        #expect(elementText("date_sent", in: receiver.received) == "1473075233")
        #expect(try storedDate(f, objectId(31)) == 1473075233)
        // Not a number: the server's clock, as without one.
        let before = Int(Date().timeIntervalSince1970)
        sender.send("<message type='chat' to='\(f.jid(bob))' id='\(objectId(32))'><body>undated</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><date_sent>soon</date_sent></extraParams></message>")
        #expect(f.ack(sender, expecting: 2))
        #expect(try storedDate(f, objectId(32)).map { $0 >= before && $0 <= before + 5 } == true)
    }

    @Test func aGroupMessageKeepsTheSendersDate() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: "a")
        a.send("<presence to='\(f.room(dialog))/\(ann)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
        #expect(a.read(untilContains: "<status code='110'/>"))
        try f.enableAcks(a)
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='\(objectId(33))'><body>dated room</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><date_sent>1473075299</date_sent></extraParams></message>")
        #expect(f.ack(a, expecting: 1))
        #expect(try storedDate(f, objectId(33)) == 1473075299)
    }
}
