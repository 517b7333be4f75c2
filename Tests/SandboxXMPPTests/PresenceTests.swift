// Presence between users who share a dialog, and XEP-0012 last activity (docs/protocol.md §7,
// "Presence and last activity"), against an in-process server with a real in-memory database.
import Foundation
import Testing
import SandboxStorage
@testable import SandboxXMPP

@Suite("Presence and last activity", .serialized)
struct PresenceTests {
    typealias C = XMPPTestConstants

    private func lastActivityQuery(_ f: MessagingFixture, of userId: Int, id: String) -> String {
        "<iq type='get' id='\(id)' to='\(f.jid(userId))'><query xmlns='jabber:iq:last'/></iq>"
    }

    /// A round trip: whatever the server meant for `client` before it read the ping is in `received` after.
    private func settle(_ client: RawXMPPClient, _ id: String = "settle") -> Bool {
        client.send("<iq type='get' id='\(id)'><ping xmlns='urn:xmpp:ping'/></iq>")
        return client.read(untilContains: "id='\(id)'")
    }

    private func online(_ f: MessagingFixture, _ userId: Int, _ login: String, resource: String) throws -> RawXMPPClient {
        let client = try f.connect(userId, login, resource: resource)
        client.send("<presence/>")
        #expect(settle(client, "online"))
        return client
    }

    @Test func availablePresenceReachesThoseWhoShareADialogAndANewcomerHearsTheirs() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), carol = try f.user("carol")
        _ = try f.group(owner: ann, [bob], type: .privateChat)
        let b = try online(f, bob, "bob", resource: "b")
        let c = try online(f, carol, "carol", resource: "c")
        b.clear(); c.clear()

        let a = try f.connect(ann, "ann", resource: "a")
        a.send("<presence><show>away</show><status>lunch</status></presence>")
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))/a' to='\(f.jid(bob))/b'><show>away</show><status>lunch</status></presence>"))
        // The probe's answer: Bob, who was online already; nothing of Carol, who shares no dialog.
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b' to='\(f.jid(ann))/a'/>"))
        #expect(settle(a) && !a.received.contains(f.jid(carol)))
        #expect(settle(c) && !c.received.contains("<presence"))
    }

    @Test func aResourceThatSentNoPresenceHearsNoneAndIsNotOnline() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.group(owner: ann, [bob], type: .privateChat)
        let quiet = try f.connect(bob, "bob", resource: "quiet")
        let a = try online(f, ann, "ann", resource: "a")
        #expect(settle(quiet) && !quiet.received.contains("<presence"))
        #expect(!a.received.contains("<presence from='\(f.jid(bob))"))
        a.clear()
        a.send(lastActivityQuery(f, of: bob, id: "last-1"))
        #expect(a.read(untilContains: "</iq>"))
        #expect(a.received.contains("<item-not-found"), "bound but never available: never seen")
    }

    @Test func theLastResourceGoingAwayIsUnavailableAndLastActivityCountsFromThen() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.group(owner: ann, [bob], type: .privateChat)
        let a = try online(f, ann, "ann", resource: "a")
        let b1 = try online(f, bob, "bob", resource: "b1")
        let b2 = try online(f, bob, "bob", resource: "b2")
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b2'"))
        f.server.query { server in server.router.presence.now = { 1_000 } }

        b1.send("<presence type='unavailable'/>")
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b1' type='unavailable' to='\(f.jid(ann))/a'/>"))
        a.clear()
        a.send(lastActivityQuery(f, of: bob, id: "last-1"))
        #expect(a.read(untilContains: "</iq>"))
        #expect(a.received == "<iq type='result' id='last-1' from='\(f.jid(bob))' to='\(f.jid(ann))/a'><query xmlns='jabber:iq:last' seconds='0'/></iq>",
                "b2 is still online")

        b2.send("</stream:stream>")
        #expect(b2.waitForClose())
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b2' type='unavailable'"))
        f.server.query { server in server.router.presence.now = { 1_300 } }
        a.clear()
        a.send(lastActivityQuery(f, of: bob, id: "last-2"))
        #expect(a.read(untilContains: "</iq>"))
        #expect(a.received.contains("<query xmlns='jabber:iq:last' seconds='300'/>"))
        #expect(try f.server.withStorage { store, _, _ in try store.chatLastSeen(bob) } == 1_000, "kept in storage too")
    }

    @Test func lastActivityRefusesUnknownUsersAndTheNeverSeenAndAnswersStrangers() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), carol = try f.user("carol"), dave = try f.user("dave")
        _ = try f.group(owner: ann, [dave], name: "pair")
        let a = try online(f, ann, "ann", resource: "a")
        func ask(_ userId: Int) -> String {
            a.clear()
            a.send(lastActivityQuery(f, of: userId, id: "q\(userId)"))
            _ = a.read(untilContains: "</iq>")
            return a.received
        }
        #expect(ask(9_999).contains("<error type='cancel'><service-unavailable"))
        #expect(ask(dave).contains("<error type='cancel'><item-not-found"))
        // Carol shares no dialog with Ann, and is answered about all the same, as the hosted service
        // answers QuickBlox's SDK suite: the seconds the SDK reads.
        _ = try online(f, carol, "carol", resource: "c")
        #expect(ask(carol).contains("<iq type='result' id='q\(carol)' from='\(f.jid(carol))' to='\(f.jid(ann))/a'><query xmlns='jabber:iq:last' seconds='0'/></iq>"))
        #expect(ask(dave).contains("from='\(f.jid(dave))'"), "the error comes from the user asked about")
        // To a full JID it would be the client's own idle time (XEP-0012 §4): not the server's to answer.
        a.clear()
        a.send("<iq type='get' id='full' to='\(f.jid(dave))/x'><query xmlns='jabber:iq:last'/></iq>")
        #expect(a.read(untilContains: "</iq>") && a.received.contains("service-unavailable"))
    }

    @Test func groupOccupantsShareTheirPresenceUpToTheLimit() throws {
        var limits = XMPPServer.Limits()
        limits.maxPresenceGroupOccupants = 3
        let f = try MessagingFixture(limits: limits)
        let ann = try f.user("ann"), bob = try f.user("bob"), carol = try f.user("carol"), dave = try f.user("dave")
        _ = try f.group(owner: ann, [bob, carol], name: "three")
        let big = try f.user("erin")
        _ = try f.group(owner: big, [ann, bob, carol, dave], name: "five")
        let b = try online(f, bob, "bob", resource: "b")
        let d = try online(f, dave, "dave", resource: "d")
        b.clear(); d.clear()
        let a = try online(f, ann, "ann", resource: "a")
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))/a'"))
        #expect(settle(d) && !d.received.contains("<presence"), "a group over the limit shares no presence")
        #expect(a.received.contains("<presence from='\(f.jid(bob))/b'") && !a.received.contains(f.jid(dave)))
    }

    @Test func aResumedSessionStaysOnlineWithoutTellingAnyoneAgain() throws {
        var limits = XMPPServer.Limits()
        limits.resumptionTimeout = 30
        let f = try MessagingFixture(limits: limits)
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.group(owner: ann, [bob], type: .privateChat)
        let a = try online(f, ann, "ann", resource: "a")
        let b = try f.connect(bob, "bob", resource: "b")
        b.send("<enable xmlns='urn:xmpp:sm:3' resume='true'/><presence/>")
        #expect(b.read(untilContains: "<enabled"))
        let previd = try #require(b.received.firstMatch(of: /id='([^']+)'/)?.1).description
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b'"))
        a.clear()
        // The connection drops without a goodbye: the session waits, still online.
        shutdown(b.fd, Int32(SHUT_RDWR))
        let again = try f.authenticate(bob, "bob")
        again.send("<resume xmlns='urn:xmpp:sm:3' previd='\(previd)' h='0'/>")
        #expect(again.read(untilContains: "<resumed"))
        #expect(settle(a) && !a.received.contains("<presence"))
        a.send(lastActivityQuery(f, of: bob, id: "last"))
        #expect(a.read(untilContains: "seconds='0'"))
    }
}
