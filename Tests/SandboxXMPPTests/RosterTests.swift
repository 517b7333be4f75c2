// Contact lists (RFC 6121 rosters, docs/protocol.md §7 "Contact lists") against an in-process
// server with a real in-memory database: the roster and its pushes, each subscription presence
// moving both users' items, presence to subscribers, and a request kept for an offline user.
import Foundation
import Testing
import SandboxStorage
@testable import SandboxXMPP

/// A round trip: whatever the server meant for `client` before it read the ping is in `received` after.
func settle(_ client: RawXMPPClient, _ id: String = "settle") -> Bool {
    client.send("<iq type='get' id='\(id)'><ping xmlns='urn:xmpp:ping'/></iq>")
    return client.read(untilContains: "id='\(id)'")
}

extension MessagingFixture {
    /// A bound stream of `userId` that asked for its roster (so it gets pushes) and is available.
    func online(_ userId: Int, _ login: String, resource: String) throws -> RawXMPPClient {
        let client = try connect(userId, login, resource: resource)
        client.send("<iq type='get' id='roster-0'><query xmlns='jabber:iq:roster'/></iq><presence/>")
        guard settle(client, "online") else { throw TestFailure("\(login) did not come online: \(client.received)") }
        return client
    }

    /// The answer to an IQ `client` sends with `id`.
    func ask(_ client: RawXMPPClient, _ iq: String, id: String) -> String {
        client.clear()
        client.send(iq + "<iq type='get' id='after-\(id)'><ping xmlns='urn:xmpp:ping'/></iq>")
        _ = client.read(untilContains: "id='after-\(id)'")
        return client.received
    }

    /// The roster `client` gets back.
    func roster(_ client: RawXMPPClient, id: String = "roster") -> String {
        ask(client, "<iq type='get' id='\(id)'><query xmlns='jabber:iq:roster'/></iq>", id: id)
    }
}

@Suite("Contact lists", .serialized)
struct RosterTests {
    private func presence(_ type: String, to jid: String) -> String { "<presence to='\(jid)' type='\(type)'/>" }

    /// Ann and Bob online, and Ann's request to Bob delivered.
    private func annAsksBob() throws -> (MessagingFixture, Int, Int, RawXMPPClient, RawXMPPClient) {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a"), b = try f.online(bob, "bob", resource: "b")
        a.send(presence("subscribe", to: f.jid(bob)))
        guard b.read(untilContains: "type='subscribe'") else { throw TestFailure("no request: \(b.received)") }
        return (f, ann, bob, a, b)
    }

    @Test func aRequestAndBothApprovalsMakeAMutualSubscriptionWithPushesAtEachStep() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a"), b = try f.online(bob, "bob", resource: "b")
        #expect(f.roster(a).contains("<query xmlns='jabber:iq:roster'/>"), "an empty roster first")
        a.clear(); b.clear()

        a.send(presence("subscribe", to: f.jid(bob)))
        #expect(a.read(untilContains: "<item jid='\(f.jid(bob))' subscription='none' ask='subscribe'/>"))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))' to='\(f.jid(bob))/b' type='subscribe'/>"))

        a.clear()
        b.send(presence("subscribed", to: f.jid(ann)))
        #expect(b.read(untilContains: "<item jid='\(f.jid(ann))' subscription='from'/>"))
        #expect(a.read(untilContains: "<item jid='\(f.jid(bob))' subscription='to'/>"))
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))' to='\(f.jid(ann))/a' type='subscribed'/>"))
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b' to='\(f.jid(ann))/a'/>"), "the approver's presence follows")

        // Bob asks back, as the SDK's confirm does, and Ann approves.
        b.send(presence("subscribe", to: f.jid(ann)))
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))' to='\(f.jid(ann))/a' type='subscribe'/>"))
        a.send(presence("subscribed", to: f.jid(bob)))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))/a' to='\(f.jid(bob))/b'/>"))
        #expect(f.roster(a).contains("<item jid='\(f.jid(bob))' subscription='both'/>"))
        #expect(f.roster(b).contains("<item jid='\(f.jid(ann))' subscription='both'/>"))
    }

    @Test func presenceReachesSubscribersOnlyAvailableAndUnavailable() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        // Ann receives Bob's presence; Bob does not receive Ann's. They share no dialog.
        try f.server.withStorage { store, _, _ in
            var annSide = RosterItem(contactId: bob)
            annSide.listed = true
            annSide.subscription = .to
            try store.saveRosterItem(annSide, of: ann)
            var bobSide = RosterItem(contactId: ann)
            bobSide.listed = true
            bobSide.subscription = .from
            try store.saveRosterItem(bobSide, of: bob)
        }
        let a = try f.online(ann, "ann", resource: "a")
        let b = try f.online(bob, "bob", resource: "b")
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b' to='\(f.jid(ann))/a'/>"))
        #expect(settle(b) && !b.received.contains("<presence from='\(f.jid(ann))"), "Bob is no subscriber of Ann's")
        b.send("<presence type='unavailable'/>")
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))/b' type='unavailable' to='\(f.jid(ann))/a'/>"))
    }

    @Test func aRequestToAnOfflineUserWaitsUntilTheyAreAvailable() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a")
        a.send(presence("subscribe", to: f.jid(bob)))
        #expect(settle(a))
        let b = try f.connect(bob, "bob", resource: "b")
        #expect(settle(b) && !b.received.contains("subscribe"), "not before its first available presence")
        b.send("<presence/>")
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))' to='\(f.jid(bob))/b' type='subscribe'/>"))
        #expect(!f.roster(b).contains(f.jid(ann)), "a request alone is not in the roster")
    }

    @Test func aRefusalClearsTheAskAndTellsTheRequester() throws {
        let (f, ann, bob, a, b) = try annAsksBob()
        a.clear()
        b.send(presence("unsubscribed", to: f.jid(ann)))
        #expect(a.read(untilContains: "<presence from='\(f.jid(bob))' to='\(f.jid(ann))/a' type='unsubscribed'/>"))
        #expect(f.roster(a).contains("<item jid='\(f.jid(bob))' subscription='none'/>"))
        // Nothing waits for Bob any more.
        let b2 = try f.connect(bob, "bob", resource: "b2")
        b2.send("<presence/>")
        #expect(settle(b2) && !b2.received.contains("type='subscribe'"))
    }

    @Test func removingAnItemEndsBothSubscriptionsAndPushesTheRemoval() throws {
        let (f, ann, bob, a, b) = try annAsksBob()
        b.send(presence("subscribed", to: f.jid(ann)) + presence("subscribe", to: f.jid(ann)))
        #expect(a.read(untilContains: "type='subscribe'/>"))
        a.send(presence("subscribed", to: f.jid(bob)))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))/a' to='\(f.jid(bob))/b'/>"))
        b.clear()

        let answer = f.ask(a, "<iq type='set' id='rm'><query xmlns='jabber:iq:roster'><item jid='\(f.jid(bob))' subscription='remove'/></query></iq>", id: "rm")
        #expect(answer.contains("<iq type='result' id='rm' to='\(f.jid(ann))/a'/>"))
        #expect(a.read(untilContains: "<item jid='\(f.jid(bob))' subscription='remove'/>"))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))' to='\(f.jid(bob))/b' type='unsubscribe'/>"))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))' to='\(f.jid(bob))/b' type='unsubscribed'/>"))
        #expect(b.read(untilContains: "<presence from='\(f.jid(ann))/a' type='unavailable' to='\(f.jid(bob))/b'/>"))
        #expect(!f.roster(a).contains(f.jid(bob)))
        #expect(f.roster(b).contains("<item jid='\(f.jid(ann))' subscription='none'/>"))
        let again = f.ask(a, "<iq type='set' id='rm2'><query xmlns='jabber:iq:roster'><item jid='\(f.jid(bob))' subscription='remove'/></query></iq>", id: "rm2")
        #expect(again.contains("type='error'") && again.contains("<item-not-found"))
    }

    @Test func anItemIsNamedAndGroupedAndBadSetsAreRefused() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a")
        let set = f.ask(a, "<iq type='set' id='s1'><query xmlns='jabber:iq:roster'><item jid='\(f.jid(bob))' name='Bob &amp; co'><group>Work</group></item></query></iq>", id: "s1")
        #expect(set.contains("<item jid='\(f.jid(bob))' subscription='none' name='Bob &amp; co'><group>Work</group></item>"), "pushed")
        #expect(f.roster(a).contains("<item jid='\(f.jid(bob))' subscription='none' name='Bob &amp; co'><group>Work</group></item>"))
        let nobody = f.ask(a, "<iq type='set' id='s2'><query xmlns='jabber:iq:roster'><item jid='999-\(XMPPTestConstants.applicationId)@\(XMPPTestConstants.domain)'/></query></iq>", id: "s2")
        #expect(nobody.contains("type='error'") && nobody.contains("<item-not-found"))
        let two = f.ask(a, "<iq type='set' id='s3'><query xmlns='jabber:iq:roster'><item jid='\(f.jid(bob))'/><item jid='\(f.jid(bob))'/></query></iq>", id: "s3")
        #expect(two.contains("type='error'") && two.contains("<bad-request"))
    }
}
