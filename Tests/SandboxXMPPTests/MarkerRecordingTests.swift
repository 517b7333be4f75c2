// Chat markers recorded from what routing remembers of lately stored messages (docs/protocol.md
// §7): a marker counts the same whether its message is remembered or read from the database,
// and never for a message that is gone.
import Foundation
import Testing
import SQLiteStore
@testable import SandboxStorage
@testable import SandboxXMPP

@Suite("Sandbox marker recording", .serialized)
struct MarkerRecordingTests {
    func marker(_ kind: String, _ id: String, to: String, stanzaId: String) -> String {
        "<message type='chat' to='\(to)' id='\(stanzaId)'><\(kind) xmlns='urn:xmpp:chat-markers:0' id='\(id)'/></message>"
    }

    /// A markable message from a plain client (its own id `id`) as `receiver` gets it: its stored id.
    func sendPlain(_ f: MessagingFixture, _ sender: RawXMPPClient, to recipient: Int, id: String, body: String,
                   receiver: RawXMPPClient) throws -> String {
        receiver.clear()
        sender.send("<message type='chat' to='\(f.jid(recipient))' id='\(id)'><body>\(body)</body><markable xmlns='urn:xmpp:chat-markers:0'/></message>")
        guard receiver.read(untilContains: body), let stored = attribute("id", in: receiver.received) else {
            throw TestFailure("not delivered: \(receiver.received)")
        }
        return stored
    }

    func deliveryRows(_ f: MessagingFixture, _ id: String) throws -> Int {
        try f.server.withStorage { store, _, _ in
            try store.db.queryFirst("SELECT COUNT(*) FROM message_deliveries WHERE message_id = ?", [.text(id)]) { $0.int(0) } ?? 0
        }
    }

    /// A plain sender's two messages: the first forgotten by routing before it is marked (read
    /// back from the database), the second remembered. Both count, both reach the sender under
    /// its own ids, by the stored id or by the sender's own.
    @Test func aMarkerCountsWhetherItsMessageIsRememberedOrRead() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(b)
        let first = try sendPlain(f, a, to: bob, id: "mine-1", body: "first", receiver: b)
        try f.server.withStorage { store, _, _ in store.forgetRoutingCaches() }
        let second = try sendPlain(f, a, to: bob, id: "mine-2", body: "second", receiver: b)
        let remembered = try f.server.withStorage { store, _, _ in
            try [first, second].map { id in try store.messageOrigin(id: id).map { "\($0.senderId) \($0.originId ?? "")" } ?? "none" }
        }
        #expect(remembered == ["\(ann) mine-1", "\(ann) mine-2"], "the same from the database and from memory")

        b.send(marker("received", first, to: f.jid(ann), stanzaId: "r1"))
        b.send(marker("displayed", "mine-2", to: f.jid(ann), stanzaId: "r2"))
        #expect(f.ack(b, expecting: 2))
        #expect(a.read(untilContains: "<received xmlns='urn:xmpp:chat-markers:0' id='mine-1'/>"))
        #expect(a.read(untilContains: "<displayed xmlns='urn:xmpp:chat-markers:0' id='mine-2'/>"))
        #expect(try f.message(first)?.deliveredIds == [ann, bob])
        #expect(try f.message(first)?.readIds == [ann])
        #expect(try f.message(second)?.deliveredIds == [ann, bob] && f.message(second)?.readIds == [ann, bob])
    }

    /// A message deleted after routing stored it is forgotten with it: a marker naming it is
    /// passed on as it came and records nothing.
    @Test func aMarkerForADeletedMessageRecordsNothing() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(b)
        let stored = try sendPlain(f, a, to: bob, id: "mine-1", body: "gone soon", receiver: b)
        try f.server.withStorage { store, _, _ in
            guard let message = try store.message(id: stored) else { throw TestFailure("not stored") }
            try store.deleteMessage(message)
        }
        b.send(marker("received", stored, to: f.jid(ann), stanzaId: "r1"))
        #expect(f.ack(b, expecting: 1))
        #expect(a.read(untilContains: "<received xmlns='urn:xmpp:chat-markers:0' id='\(stored)'/>"), "passed on under the id it named")
        #expect(try deliveryRows(f, stored) == 0)
    }

    /// Someone outside the dialog marking a remembered message: passed on, not counted.
    @Test func aMarkerFromOutsideTheDialogIsNotCounted() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        let e = try f.connect(eve, "eve", resource: "e")
        try f.enableAcks(e)
        let stored = try sendPlain(f, a, to: bob, id: "mine-1", body: "for bob", receiver: b)
        e.send(marker("displayed", stored, to: f.jid(ann), stanzaId: "x1"))
        #expect(f.ack(e, expecting: 1))
        #expect(a.read(untilContains: "<displayed xmlns='urn:xmpp:chat-markers:0' id='\(stored)'/>"))
        #expect(try f.message(stored)?.deliveredIds == [ann] && f.message(stored)?.readIds == [ann])
    }
}
