// Read state in the sandbox (docs/protocol.md §6–7): markers routed like chat messages and
// applied to the stored message only when they should be, and what REST then reads of them.
import Foundation
import Testing
import SandboxXMPP

@Suite("Sandbox read state", .serialized)
struct ReadStateSandboxTests {
    /// A stored, markable message from `sender` in `dialog`, sent over REST.
    func stored(_ f: MessagingFixture, _ dialog: String, from sender: Int) throws -> String {
        let (status, body) = try f.rest(.post, "/chat/Message.json", form: "chat_dialog_id=\(dialog)&message=hi&markable=1", as: sender)
        guard status == 201, let id = elementJSONString("_id", in: body) else { throw TestFailure("send: \(status) \(body)") }
        return id
    }

    func marker(_ kind: String, _ id: String, to: String, dialog: String, stanzaId: String) -> String {
        "<message type='chat' to='\(to)' id='\(stanzaId)'><\(kind) xmlns='urn:xmpp:chat-markers:0' id='\(id)'/>"
            + "<extraParams xmlns='jabber:client'><dialog_id>\(dialog)</dialog_id></extraParams></message>"
    }

    @Test func markersFromOutsidersOrNotToTheSenderArePassedOnButChangeNothing() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let dialog = try f.group(owner: ann, [bob])
        let id = try stored(f, dialog, from: ann)
        let a = try f.connect(ann, "ann", resource: "a"), e = try f.connect(eve, "eve", resource: "e")
        let b = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(e)
        try f.enableAcks(b)
        // Eve is not in the dialog: routed like any chat message, never recorded.
        e.send(marker("displayed", id, to: f.jid(ann), dialog: dialog, stanzaId: "x1"))
        #expect(f.ack(e, expecting: 1))
        #expect(a.read(untilContains: "<displayed xmlns='urn:xmpp:chat-markers:0' id='\(id)'/>"))
        // Bob is, but tells Eve, not the message's sender.
        b.send(marker("received", id, to: f.jid(eve), dialog: dialog, stanzaId: "x2"))
        #expect(f.ack(b, expecting: 1))
        let message = try #require(try f.message(id))
        #expect(message.deliveredIds == [ann] && message.readIds == [ann], "only the sender, as stored")
        #expect(try f.unread(dialog, for: bob) == 1)
        #expect(try f.messageCount() == 1, "markers are never stored as messages")
    }

    @Test func inAGroupEachOccupantsMarkersToTheSenderCount() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let dialog = try f.group(owner: ann, [bob, cat])
        let id = try stored(f, dialog, from: ann)
        let b = try f.connect(bob, "bob", resource: "b"), c = try f.connect(cat, "cat", resource: "c")
        try f.enableAcks(b)
        try f.enableAcks(c)
        // Ann is offline: recorded all the same.
        b.send(marker("received", id, to: f.jid(ann), dialog: dialog, stanzaId: "r1"))
        #expect(f.ack(b, expecting: 1))
        c.send(marker("displayed", id, to: f.jid(ann), dialog: dialog, stanzaId: "r2"))
        #expect(f.ack(c, expecting: 1))
        let message = try #require(try f.message(id))
        #expect(message.deliveredIds == [ann, bob, cat] && message.readIds == [ann, cat])
        #expect(try f.unread(dialog, for: bob) == 1 && f.unread(dialog, for: cat) == 0)
        // What history then says, as a client reads it.
        let (status, body) = try f.rest(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", as: ann)
        #expect(status == 200)
        #expect(body.contains(#""read_ids":[\#(ann),\#(cat)],"delivered_ids":[\#(ann),\#(bob),\#(cat)]"#), "\(body)")
    }
}

/// The string value of `"key":"…"` in compact JSON text.
func elementJSONString(_ key: String, in json: String) -> String? {
    guard let range = json.range(of: "\"\(key)\":\"") else { return nil }
    return json[range.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
}
