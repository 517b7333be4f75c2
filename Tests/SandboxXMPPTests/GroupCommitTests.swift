// Group commit (docs/protocol.md §7, "Acknowledgements"): the messages of one turn of the
// event loop share one transaction, and nothing about them (acks, deliveries) leaves before
// it commits.
import Foundation
import Testing
@testable import SandboxXMPP

@Suite(.serialized) struct GroupCommitTests {
    typealias C = XMPPTestConstants

    static func stanza(_ n: Int, to jid: String, dialogId: String) -> String {
        "<message type='chat' to='\(jid)' id='m-\(n)'><body>line \(n)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>\(dialogId)</dialog_id></extraParams></message>"
    }

    static func bodies(in text: String) -> [String] {
        text.components(separatedBy: "<body>").dropFirst().compactMap { $0.components(separatedBy: "</body>").first }
    }

    /// Ann and Bob, their private dialog, and a stream of each (Ann's with acks on).
    struct Pair {
        let fixture: MessagingFixture
        let ann: Int, bob: Int
        let dialogId: String
        let annStream: RawXMPPClient, bobStream: RawXMPPClient

        init() throws {
            fixture = try MessagingFixture()
            ann = try fixture.user("ann")
            bob = try fixture.user("bob")
            let (ann, bob) = (ann, bob)
            dialogId = try fixture.server.withStorage { store, _, _ in
                try store.createDialog(type: .privateChat, name: nil, photo: nil, ownerId: ann, occupants: [bob]).id
            }
            annStream = try fixture.connect(ann, "ann", resource: "a")
            bobStream = try fixture.connect(bob, "bob", resource: "b")
            try fixture.enableAcks(annStream)
        }
    }

    @Test func messagesReadInOneTurnAreStoredAndDeliveredInOrderAndAcknowledgedOnce() throws {
        let pair = try Pair()
        let (fixture, bob, dialogId, annStream, bobStream) = (pair.fixture, pair.bob, pair.dialogId, pair.annStream, pair.bobStream)
        // One write: the sandbox reads them in one turn, so one transaction holds them all.
        let count = 300
        annStream.send((1...count).map { Self.stanza($0, to: fixture.jid(bob), dialogId: dialogId) }.joined() + "<r xmlns='urn:xmpp:sm:3'/>")
        #expect(annStream.read(untilContains: "<a xmlns='urn:xmpp:sm:3' h='\(count)'/>", timeout: 20), "\(annStream.received.suffix(300))")
        #expect(annStream.received.components(separatedBy: "<a xmlns").count == 2, "acknowledged once")
        #expect(bobStream.read(until: { Self.bodies(in: $0).count >= count }, timeout: 20))
        #expect(Self.bodies(in: bobStream.received) == (1...count).map { "line \($0)" })
        let stored = try fixture.server.withStorage { store, _, _ in
            try store.messages(dialogId: dialogId, filters: [], descending: false, limit: 1000, skip: 0).map(\.body)
        }
        #expect(stored == (1...count).map { "line \($0)" })
        // The dialog's last message is written once for the turn, and is the turn's last.
        #expect(try fixture.privateDialog(pair.ann, bob)?.lastMessage == "line \(count)")
    }

    @Test func eachDialogOfATurnGetsItsOwnLastMessage() throws {
        let pair = try Pair()
        let (fixture, ann, bob, annStream) = (pair.fixture, pair.ann, pair.bob, pair.annStream)
        let cat = try fixture.user("cat")
        func say(_ body: String, to user: Int) -> String {
            "<message type='chat' to='\(fixture.jid(user))'><body>\(body)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
        }
        annStream.send(say("b1", to: bob) + say("c1", to: cat) + say("b2", to: bob) + say("c2", to: cat) + say("b3", to: bob))
        #expect(fixture.ack(annStream, expecting: 5))
        #expect(try fixture.privateDialog(ann, bob)?.lastMessage == "b3")
        #expect(try fixture.privateDialog(ann, cat)?.lastMessage == "c2")
    }

    @Test func aTurnWhoseCommitFailsAcknowledgesAndDeliversNothingOfIt() throws {
        let pair = try Pair()
        let (fixture, ann, bob, dialogId, annStream, bobStream) = (pair.fixture, pair.ann, pair.bob, pair.dialogId, pair.annStream, pair.bobStream)
        _ = fixture.server.query { server in server.router.store?.commitsToFail = 1 }
        annStream.send(Self.stanza(1, to: fixture.jid(bob), dialogId: dialogId) + "<r xmlns='urn:xmpp:sm:3'/>")
        // Both were to be told something in that turn: neither hears it; both streams end.
        #expect(annStream.waitForClose(timeout: 10))
        #expect(annStream.received.contains("<internal-server-error"))
        #expect(!annStream.received.contains("<a xmlns"))
        #expect(bobStream.waitForClose(timeout: 10))
        #expect(!bobStream.received.contains("line 1"))
        #expect(try fixture.messageCount() == 0)
        #expect(try fixture.privateDialog(ann, bob)?.lastMessage == nil)

        // The client comes back and sends it again: stored and delivered once.
        let again = try fixture.connect(ann, "ann", resource: "a2")
        let bobAgain = try fixture.connect(bob, "bob", resource: "b2")
        try fixture.enableAcks(again)
        again.send(Self.stanza(1, to: fixture.jid(bob), dialogId: dialogId))
        #expect(fixture.ack(again, expecting: 1))
        #expect(bobAgain.read(untilContains: "line 1"))
        #expect(try fixture.messageCount() == 1)
    }

    @Test func whatOtherTurnsSaidStillGoesOutAfterAFailedOne() throws {
        let fixture = try MessagingFixture()
        let ann = try fixture.user("ann"), bob = try fixture.user("bob"), cat = try fixture.user("cat")
        let annStream = try fixture.connect(ann, "ann", resource: "a")
        let catStream = try fixture.connect(cat, "cat", resource: "c")
        try fixture.enableAcks(annStream)
        try fixture.enableAcks(catStream)
        _ = fixture.server.query { server in server.router.store?.commitsToFail = 1 }
        annStream.send("<message type='chat' to='\(fixture.jid(bob))' id='x'><body>lost</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message><r xmlns='urn:xmpp:sm:3'/>")
        #expect(annStream.waitForClose(timeout: 10))
        // A later turn commits as usual.
        #expect(fixture.ack(catStream, expecting: 0))
        #expect(!catStream.received.contains("stream:error"))
    }
}
