// Privacy lists (XEP-0016, docs/protocol.md §7 "Privacy lists") as QuickBlox's SDKs write them,
// against an in-process server with a real in-memory database: the lists kept, the default and
// active list, and what a block stops (1:1 messages, group messages, presence), with the errors.
import Foundation
import Testing
import SandboxStorage
@testable import SandboxXMPP

@Suite("Privacy lists", .serialized)
struct PrivacyListTests {
    typealias C = XMPPTestConstants

    private func query(_ content: String) -> String { "<query xmlns='jabber:iq:privacy'>\(content)</query>" }

    /// The items the SDK writes to block `userId`: by JID and by nick in rooms; `mutual` (its
    /// `mutualBlock`) without kinds, which blocks everything both ways, else the four kinds.
    private func sdkItems(_ f: MessagingFixture, blocking userId: Int, mutual: Bool) -> String {
        let kinds = mutual ? "" : "<message/><presence-in/><presence-out/><iq/>"
        func item(_ value: String, _ order: Int) -> String {
            mutual ? "<item type='jid' value='\(value)' action='deny' order='\(order)'/>"
                : "<item type='jid' value='\(value)' action='deny' order='\(order)'>\(kinds)</item>"
        }
        return item(f.jid(userId), 1) + item("muc.\(C.domain)/\(userId)", 2)
    }

    private func set(_ f: MessagingFixture, _ client: RawXMPPClient, _ content: String, id: String) -> String {
        f.ask(client, "<iq type='set' id='\(id)'>\(query(content))</iq>", id: id)
    }

    private func get(_ f: MessagingFixture, _ client: RawXMPPClient, _ content: String = "", id: String) -> String {
        f.ask(client, "<iq type='get' id='\(id)'>\(query(content))</iq>", id: id)
    }

    /// `client`'s user blocks `userId` with the list `blocked`, made default and active, as the SDK's setAsDefault does.
    private func block(_ f: MessagingFixture, _ client: RawXMPPClient, _ userId: Int, mutual: Bool) {
        #expect(set(f, client, "<list name='blocked'>\(sdkItems(f, blocking: userId, mutual: mutual))</list>", id: "l").contains("<iq type='result' id='l'"))
        #expect(set(f, client, "<default name='blocked'/>", id: "d").contains("<iq type='result' id='d'"))
        #expect(set(f, client, "<active name='blocked'/>", id: "a").contains("<iq type='result' id='a'"))
    }

    private func chat(_ f: MessagingFixture, to userId: Int, id: String, dialog: String) -> String {
        "<message type='chat' to='\(f.jid(userId))' id='\(id)'><body>hello</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>\(dialog)</dialog_id></extraParams></message>"
    }

    /// Ann and Bob with a private dialog, both online.
    private func annAndBobOnline() throws -> (MessagingFixture, Int, Int, String, RawXMPPClient, RawXMPPClient) {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob], type: .privateChat)
        return (f, ann, bob, dialog, try f.online(ann, "ann", resource: "a"), try f.online(bob, "bob", resource: "b"))
    }

    @Test func aListIsKeptAsWrittenAndNamedWithItsDefault() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a")
        block(f, a, bob, mutual: true)
        let names = get(f, a, id: "n")
        #expect(names.contains(query("<active name='blocked'/><default name='blocked'/><list name='blocked'/>")))
        let list = get(f, a, "<list name='blocked'/>", id: "g")
        #expect(list.contains(query("<list name='blocked'><item type='jid' value='\(f.jid(bob))' action='deny' order='1'/><item type='jid' value='muc.\(C.domain)/\(bob)' action='deny' order='2'/></list>")))
        // Replaced by the SDK's update: the four kinds now.
        let pushed = set(f, a, "<list name='blocked'>\(sdkItems(f, blocking: bob, mutual: false))</list>", id: "u")
        #expect(pushed.contains("<iq type='set' id='privacy-push-2' to='\(f.jid(ann))/a'>\(query("<list name='blocked'/>"))</iq>"))
        #expect(get(f, a, "<list name='blocked'/>", id: "g2").contains("<item type='jid' value='\(f.jid(bob))' action='deny' order='1'><message/><presence-in/><presence-out/><iq/></item>"))
    }

    @Test func aBlockedUsersMessageBouncesAndIsNeitherStoredNorCounted() throws {
        let (f, ann, bob, dialog, a, b) = try annAndBobOnline()
        block(f, b, ann, mutual: false)
        a.clear(); b.clear()
        a.send(chat(f, to: bob, id: "m1", dialog: dialog))
        #expect(a.read(untilContains: "<message type='error' id='m1' from='\(f.jid(bob))' to='\(f.jid(ann))/a'><error type='cancel'><service-unavailable"))
        #expect(settle(b) && !b.received.contains("hello"))
        #expect(try f.messageCount() == 0)
        #expect(try f.unread(dialog, for: bob) == 0)
        #expect(try f.privateDialog(ann, bob)?.lastMessage == nil)
        // Bob's own messages to Ann still go: his list blocks only what comes in.
        b.send(chat(f, to: ann, id: "m2", dialog: dialog))
        #expect(a.read(untilContains: "<body>hello</body>"))
    }

    @Test func aMutualBlockStopsTheBlockersOwnMessagesToo() throws {
        let (f, ann, bob, dialog, a, b) = try annAndBobOnline()
        block(f, a, bob, mutual: true)
        a.clear(); b.clear()
        a.send(chat(f, to: bob, id: "m1", dialog: dialog))
        #expect(a.read(untilContains: "<message type='error' id='m1' from='\(f.jid(bob))' to='\(f.jid(ann))/a'><error type='modify'><not-acceptable"))
        b.send(chat(f, to: ann, id: "m2", dialog: dialog))
        #expect(b.read(untilContains: "<message type='error' id='m2'"))
        #expect(settle(a) && settle(b) && !a.received.contains("hello") && !b.received.contains("<body>"))
        #expect(try f.messageCount() == 0)

        // Declined, the default and the active list stop nothing.
        #expect(set(f, a, "<default/>", id: "d0").contains("<iq type='result' id='d0'"))
        #expect(set(f, a, "<active/>", id: "a0").contains("<iq type='result' id='a0'"))
        #expect(!get(f, a, id: "n").contains("<default"))
        a.send(chat(f, to: bob, id: "m3", dialog: dialog))
        #expect(b.read(untilContains: "<body>hello</body>"))
    }

    @Test func aBlockerInAGroupDoesNotReceiveTheBlockedUsersMessages() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), carol = try f.user("carol")
        let dialog = try f.group(owner: ann, [bob, carol])
        let a = try f.online(ann, "ann", resource: "a"), b = try f.online(bob, "bob", resource: "b"), c = try f.online(carol, "carol", resource: "c")
        block(f, b, ann, mutual: false)
        for (client, user) in [(a, ann), (b, bob), (c, carol)] {
            client.send("<presence to='\(f.room(dialog))/\(user)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
            #expect(client.read(until: { $0.contains("</subject>") || $0.contains("<subject/>") }))
        }
        b.clear(); c.clear()
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='g1'><body>to all</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(c.read(untilContains: "<body>to all</body>"))
        #expect(settle(b) && !b.received.contains("to all"))
        // Carol's still reach Bob.
        c.send("<message type='groupchat' to='\(f.room(dialog))' id='g2'><body>from carol</body></message>")
        #expect(b.read(untilContains: "<body>from carol</body>"))
    }

    @Test func presenceIsBlockedByKindOnly() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob], type: .privateChat)
        let b = try f.online(bob, "bob", resource: "b")
        #expect(set(f, b, "<list name='quiet'><item type='jid' value='\(f.jid(ann))' action='deny' order='1'><presence-in/></item></list>", id: "l").contains("type='result'"))
        #expect(set(f, b, "<active name='quiet'/>", id: "a").contains("type='result'"))
        b.clear()
        let a = try f.online(ann, "ann", resource: "a")
        #expect(a.received.contains("<presence from='\(f.jid(bob))/b'"), "Bob's presence still goes out")
        #expect(settle(b) && !b.received.contains("<presence from='\(f.jid(ann))"), "Ann's does not come in")
        a.send(chat(f, to: bob, id: "m1", dialog: dialog))
        #expect(b.read(untilContains: "<body>hello</body>"), "messages are another kind")
    }

    @Test func badListsAndRequestsGetXEP0016sErrors() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.online(ann, "ann", resource: "a")
        let a2 = try f.online(ann, "ann", resource: "a2")
        func error(_ answer: String, _ condition: String) -> Bool { answer.contains("type='error'") && answer.contains("<\(condition) ") }
        let item = "<item type='jid' value='\(f.jid(bob))' action='deny' order='1'/>"
        #expect(error(set(f, a, "<list name='x'><item type='jid' value='\(f.jid(bob))' action='deny'/></list>", id: "e1"), "bad-request"), "no order")
        #expect(error(set(f, a, "<list name='x'>\(item)<item action='allow' order='1'/></list>", id: "e2"), "bad-request"), "an order twice")
        #expect(error(set(f, a, "<list name='x'><item type='jid' value='\(f.jid(bob))' action='block' order='1'/></list>", id: "e3"), "bad-request"))
        #expect(error(set(f, a, "<list name='x'><item type='jid' action='deny' order='1'/></list>", id: "e4"), "jid-malformed"))
        #expect(error(set(f, a, "<list name='x'><item type='jid' value='999-\(C.applicationId)@\(C.domain)' action='deny' order='1'/></list>", id: "e5"), "item-not-found"), "nobody")
        #expect(error(set(f, a, "<list name='x'><item type='jid' value='muc.\(C.domain)/999' action='deny' order='1'/></list>", id: "e6"), "item-not-found"), "no such nick")
        #expect(error(set(f, a, "<list name='x'><item type='group' value='Friends' action='deny' order='1'/></list>", id: "e7"), "item-not-found"), "no such group")
        #expect(error(set(f, a, "<list name='x'><item type='subscription' value='some' action='deny' order='1'/></list>", id: "e8"), "bad-request"))
        #expect(error(set(f, a, "<list name='x'>\(item)</list><active name='x'/>", id: "e9"), "bad-request"), "two at once")
        #expect(error(get(f, a, "<list name='x'/>", id: "e10"), "item-not-found"))
        #expect(error(set(f, a, "<active name='x'/>", id: "e11"), "item-not-found"))
        #expect(error(set(f, a, "<default name='x'/>", id: "e12"), "item-not-found"))
        #expect(error(set(f, a, "<list name='x'/>", id: "e13"), "item-not-found"), "removing a list there is not")

        // The default cannot go, nor another session's active list, nor a default another session applies.
        #expect(set(f, a, "<list name='x'>\(item)</list>", id: "ok1").contains("type='result'"))
        #expect(set(f, a, "<list name='y'>\(item)</list>", id: "ok2").contains("type='result'"))
        #expect(set(f, a, "<default name='x'/>", id: "ok3").contains("type='result'"))
        #expect(error(set(f, a, "<list name='x'/>", id: "c1"), "conflict"))
        #expect(error(set(f, a, "<default name='y'/>", id: "c2"), "conflict"), "a2 applies the default")
        #expect(set(f, a2, "<active name='y'/>", id: "ok4").contains("type='result'"))
        #expect(error(set(f, a, "<list name='y'/>", id: "c3"), "conflict"), "a2's active list")
        #expect(set(f, a, "<default name='y'/>", id: "ok5").contains("type='result'"), "no other session applies the default now")
        #expect(set(f, a, "<list name='x'/>", id: "ok6").contains("type='result'"), "no longer the default")
        #expect(get(f, a, id: "n").contains(query("<default name='y'/><list name='y'/>")))
    }
}
