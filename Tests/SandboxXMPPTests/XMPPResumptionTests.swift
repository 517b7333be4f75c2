// Stream management with resumption (XEP-0198 §5, docs/protocol.md §7 "Acknowledgements and
// keep-alive"): a session that asked for it outlives a dropped connection, keeps what is sent to
// it, and is taken over by the user's next stream, which gets what the client had not acknowledged.
import Foundation
import Testing
import TestSupport
@testable import SandboxXMPP

@Suite("XMPP stream resumption", .serialized)
struct XMPPResumptionTests {
    /// Enables stream management with resumption; returns the session's resumption id.
    private func enableResumption(_ client: RawXMPPClient) throws -> String {
        client.send("<enable xmlns='urn:xmpp:sm:3' resume='true'/>")
        guard client.read(untilContains: "resume='true'") else { throw TestFailure("no resumable <enabled/>: \(client.received)") }
        let enabled = client.received
        client.clear()
        guard let id = attribute("id", in: enabled), enabled.contains("max='") else { throw TestFailure("no id in \(enabled)") }
        return id
    }

    private func chat(_ f: MessagingFixture, _ text: String, to userId: Int, id: Int) -> String {
        "<message type='chat' to='\(f.jid(userId))' id='\(objectId(id))'><body>\(text)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
    }

    private func isHibernating(_ f: MessagingFixture, _ userId: Int, _ resource: String) -> Bool {
        f.server.query { $0.boundSessions[userId]?[resource]?.isHibernating ?? false }
    }

    @Test func aDroppedSessionIsResumedWithWhatItHadNotAcknowledged() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        var a: RawXMPPClient? = try f.connect(ann, "ann", resource: "phone")
        let b = try f.connect(bob, "bob", resource: "b")
        let id = try enableResumption(a!)
        for client in [a!, b] {
            client.send("<presence to='\(f.room(dialog))/\(client === b ? bob : ann)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
            #expect(client.read(untilContains: "</subject>"))
        }
        b.clear()
        b.send(chat(f, "first", to: ann, id: 1) + chat(f, "second", to: ann, id: 2))
        #expect(a!.read(untilContains: "<body>second</body>"))
        a = nil   // the connection drops without closing the stream
        try waitUntil("ann's session hibernates", timeout: 5) { isHibernating(f, ann, "phone") }
        b.send(chat(f, "while you were away", to: ann, id: 3))
        b.send("<message type='groupchat' to='\(f.room(dialog))' id='\(objectId(4))'><body>room news</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(b.read(untilContains: "room news"))
        #expect(!b.received.contains("type='unavailable'"), "nobody sees a hibernating occupant leave")

        let again = try f.authenticate(ann, "ann")
        // The client says it handled everything up to "first": its own presence and the subject
        // (its join), Bob's presence (his), then "first" are 4; "second" it never saw.
        again.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='4'/>")
        #expect(again.read(untilContains: "room news"))
        let got = again.received
        #expect(got.hasPrefix("<resumed xmlns='urn:xmpp:sm:3' previd='\(id)' h='"))
        #expect(!got.contains("<body>first</body>"))
        let second = try #require(got.range(of: "<body>second</body>")), away = try #require(got.range(of: "while you were away"))
        #expect(second.lowerBound < away.lowerBound)
        #expect(got.contains("to='\(f.jid(ann))/phone'"))
        // The resumed stream is the session: bound, in the room, and resumable by the same id.
        #expect(!isHibernating(f, ann, "phone"))
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) } == [ann, bob])
        b.clear()
        again.send("<message type='groupchat' to='\(f.room(dialog))' id='\(objectId(5))'><body>back</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(b.read(untilContains: "<body>back</body>"))
        #expect(f.server.query { $0.openConnectionCount } == 2, "the old connection is gone")
    }

    @Test func aSessionNotResumedInTimeEndsAndLeavesItsRooms() throws {
        var limits = XMPPServer.Limits()
        limits.resumptionTimeout = 1
        let f = try MessagingFixture(limits: limits)
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        var a: RawXMPPClient? = try f.connect(ann, "ann", resource: "a")
        let b = try f.connect(bob, "bob", resource: "b")
        let id = try enableResumption(a!)
        #expect(a!.received.isEmpty)
        for (client, user) in [(a!, ann), (b, bob)] {
            client.send("<presence to='\(f.room(dialog))/\(user)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
            #expect(client.read(untilContains: "</subject>"))
        }
        b.clear()
        a = nil
        #expect(b.read(untilContains: "type='unavailable'", timeout: 10), "after the second it was kept")
        #expect(b.received.contains("from='\(f.room(dialog))/\(ann)'"))
        #expect(f.server.query { $0.boundSessions[ann] == nil })
        let late = try f.authenticate(ann, "ann")
        late.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='0'/>")
        #expect(late.read(untilContains: "<failed xmlns='urn:xmpp:sm:3'><item-not-found"))
    }

    @Test func onlyItsOwnUserResumesASessionAndAFailedResumeStillBinds() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), eve = try f.user("eve")
        var a: RawXMPPClient? = try f.connect(ann, "ann", resource: "a")
        let id = try enableResumption(a!)
        a = nil
        try waitUntil("ann's session hibernates", timeout: 5) { isHibernating(f, ann, "a") }
        let e = try f.authenticate(eve, "eve")
        e.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='0'/>")
        #expect(e.read(untilContains: "<item-not-found"))
        e.clear()
        e.send("<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
        #expect(e.read(untilContains: "<jid>\(f.jid(eve))/"))
        #expect(isHibernating(f, ann, "a"), "eve's attempt changed nothing")
        let unknown = try f.authenticate(ann, "ann")
        unknown.send("<resume xmlns='urn:xmpp:sm:3' previd='no-such-session' h='0'/>")
        #expect(unknown.read(untilContains: "<item-not-found"))
    }

    @Test func aClosedStreamOrOneWithoutResumptionEndsAtOnce() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let a = try f.connect(ann, "ann", resource: "a")
        let id = try enableResumption(a)
        a.send("</stream:stream>")
        #expect(a.waitForClose())
        try waitUntil("ann's session is gone", timeout: 5) { f.server.query { $0.boundSessions[ann] == nil } }
        let late = try f.authenticate(ann, "ann")
        late.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='0'/>")
        #expect(late.read(untilContains: "<item-not-found"))

        var plain: RawXMPPClient? = try f.connect(ann, "ann", resource: "plain")
        try f.enableAcks(plain!)
        plain = nil
        try waitUntil("the plain stream is gone", timeout: 5) { f.server.query { $0.boundSessions[ann]?["plain"] == nil } }
    }

    @Test func theServerAsksForAcksAndForgetsWhatWasAcknowledged() throws {
        var limits = XMPPServer.Limits()
        limits.ackRequestEvery = 2
        let f = try MessagingFixture(limits: limits)
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        _ = try enableResumption(a)
        b.send(chat(f, "one", to: ann, id: 1) + chat(f, "two", to: ann, id: 2))
        #expect(a.read(untilContains: "<r xmlns='urn:xmpp:sm:3'/>"))
        let r = try #require(a.received.range(of: "<r xmlns"))
        #expect(a.received[..<r.lowerBound].contains("<body>two</body>"), "after the second stanza")
    }

    @Test func aHalfOpenConnectionIsReplacedByTheStreamThatResumesIt() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let old = try f.connect(ann, "ann", resource: "a")
        let b = try f.connect(bob, "bob", resource: "b")
        let id = try enableResumption(old)
        // The old connection still looks alive to the server (its client lost it without a FIN).
        let again = try f.authenticate(ann, "ann")
        again.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='0'/>")
        #expect(again.read(untilContains: "<resumed"))
        #expect(old.waitForClose(), "the server hangs up on the old one")
        b.send(chat(f, "to the new stream", to: ann, id: 9))
        #expect(again.read(untilContains: "to the new stream"))
        #expect(!old.received.contains("to the new stream"))
    }

    @Test func aClientThatNeverAcknowledgesGetsEverythingButLosesResumption() throws {
        var limits = XMPPServer.Limits()
        limits.maxUnacknowledgedStanzas = 3
        let f = try MessagingFixture(limits: limits)
        let ann = try f.user("ann"), bob = try f.user("bob")
        var a: RawXMPPClient? = try f.connect(ann, "ann", resource: "a")
        let b = try f.connect(bob, "bob", resource: "b")
        let id = try enableResumption(a!)
        b.send((1...5).map { chat(f, "n\($0)", to: ann, id: $0) }.joined())
        #expect(a!.read(untilContains: "<body>n5</body>"))
        #expect((1...5).allSatisfy { a!.received.contains("<body>n\($0)</body>") }, "none is lost to the overflow")
        a = nil
        try waitUntil("ann's session ends at once", timeout: 5) { f.server.query { $0.boundSessions[ann] == nil } }
        let late = try f.authenticate(ann, "ann")
        late.send("<resume xmlns='urn:xmpp:sm:3' previd='\(id)' h='5'/>")
        #expect(late.read(untilContains: "<item-not-found"))
    }
}
