// Real-time chat as QuickBlox's JavaScript SDK sends it and waits for it (docs/protocol.md §7
// "Group dialogs", "1:1 messages"): each answer the SDK's handlers key on, as its own suite
// (SDKSuiteTests) needs it, checked here stanza by stanza against an in-process server.
import Foundation
import Testing
import SandboxStorage
@testable import SandboxXMPP

@Suite("Real-time chat as QuickBlox's SDK expects it", .serialized)
struct QuickBloxRealtimeTests {
    /// The SDK's join: an id ending in `:join`, no history.
    private func sdkJoin(_ f: MessagingFixture, _ room: String, as userId: Int, id: String) -> String {
        "<presence id='\(id)' to='\(room)/\(userId)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>"
    }

    /// Sends the SDK's join of `dialog`'s room and reads up to the answer carrying `id`.
    @discardableResult
    private func join(_ f: MessagingFixture, _ client: RawXMPPClient, _ dialog: String, as userId: Int, id: String) -> Bool {
        client.send(sdkJoin(f, f.room(dialog), as: userId, id: id))
        return client.read(untilContains: "id='\(id)'")
    }

    /// A round trip: whatever the server meant for `client` before the ping is in `received` after.
    private func settle(_ client: RawXMPPClient, _ id: String = "settle") -> Bool {
        client.send("<iq type='get' id='\(id)'><ping xmlns='urn:xmpp:ping'/></iq>")
        return client.read(untilContains: "id='\(id)'")
    }

    @Test func everyJoinIsAnsweredUnderItsIdWithStatus110FirstThoughAlreadyJoined() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: "a")
        let selfPresence = "<presence from='\(f.room(dialog))/\(ann)' to='\(f.jid(ann))/a' id='%@'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='owner' role='participant' jid='\(f.jid(ann))/a'/><status code='110'/>"
        #expect(join(f, a, dialog, as: ann, id: "first:join"))
        #expect(a.received.contains(selfPresence.replacingOccurrences(of: "%@", with: "first:join")), "\(a.received)")
        // The SDK joins again by JID and by id without leaving: each waits for its own answer.
        a.clear()
        #expect(join(f, a, dialog, as: ann, id: "again:join"))
        #expect(a.received.contains(selfPresence.replacingOccurrences(of: "%@", with: "again:join")), "\(a.received)")
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) } == [ann])
    }

    @Test(arguments: ["a\(XMPPTestConstants.applicationId)_%@", "\(XMPPTestConstants.applicationId)_0123456789abcdef01234567",
                       "\(XMPPTestConstants.applicationId)_%@"])
    func aJoinThatCannotBeIsRefusedUnderItsIdWithTheLegacyCode(roomName: String) throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), eve = try f.user("eve")
        let dialog = try f.group(owner: ann, [])
        // Another application's room name, a dialog that does not exist, a room Eve is not in.
        let room = roomName.replacingOccurrences(of: "%@", with: dialog) + "@muc.\(XMPPTestConstants.domain)"
        let e = try f.connect(eve, "eve", resource: "e")
        e.send(sdkJoin(f, room, as: eve, id: "no:join"))
        #expect(e.read(untilContains: "</presence>"))
        let condition = roomName.hasPrefix("\(XMPPTestConstants.applicationId)_%@") ? "<error code='500' type='auth'><registration-required" : "<error code='500' type='cancel'><item-not-found"
        #expect(e.received.hasPrefix("<presence type='error' from='\(room)/\(eve)' to='\(f.jid(eve))/e' id='no:join'><x xmlns='http://jabber.org/protocol/muc'/>\(condition)"),
                "\(e.received)")
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) }.isEmpty)
    }

    @Test func theOthersHearAJoinAndALeaveWithoutStatusAndTheLeaverItsOwn() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let room = f.room(dialog)
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, a, dialog, as: ann, id: "a:join"))
        a.clear()
        #expect(join(f, b, dialog, as: bob, id: "b:join"))
        // Bob hears Ann, who was there; Ann hears Bob come: no <status/>, which the SDK reads as a join.
        #expect(b.received.contains("<presence from='\(room)/\(ann)' to='\(f.jid(bob))/b'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='owner' role='participant' jid='\(f.jid(ann))/a'/></x></presence>"))
        #expect(a.read(untilContains: "<presence from='\(room)/\(bob)' to='\(f.jid(ann))/a'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='member' role='participant' jid='\(f.jid(bob))/b'/></x></presence>"))
        a.clear()
        b.clear()
        b.send("<presence to='\(room)/\(bob)' type='unavailable'/>")
        // The SDK's leave waits for an unavailable presence from its own occupant JID.
        #expect(b.read(untilContains: "<presence from='\(room)/\(bob)' to='\(f.jid(bob))/b' type='unavailable'>"))
        #expect(b.received.contains("<status code='110'/>"))
        #expect(a.read(untilContains: "<presence from='\(room)/\(bob)' to='\(f.jid(ann))/a' type='unavailable'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='member' role='none' jid='\(f.jid(bob))/b'/></x></presence>"))
    }

    @Test func aRoomsItemsAreItsOccupantsWhoAreIn() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let dialog = try f.group(owner: ann, [bob])
        let room = f.room(dialog)
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        let e = try f.connect(eve, "eve", resource: "e")
        func items(_ client: RawXMPPClient, _ id: String) -> String {
            client.clear()
            client.send("<iq type='get' id='\(id)' to='\(room)'><query xmlns='http://jabber.org/protocol/disco#items'/></iq>")
            _ = client.read(untilContains: "</iq>")
            return client.received
        }
        #expect(items(a, "nobody").contains("<query xmlns='http://jabber.org/protocol/disco#items'/></iq>"))
        #expect(join(f, b, dialog, as: bob, id: "b:join") && join(f, a, dialog, as: ann, id: "a:join"))
        // In user id order, whoever joined first, each once: the SDK's listOnlineUsers reads the nicks.
        #expect(items(a, "both").contains("<query xmlns='http://jabber.org/protocol/disco#items'><item jid='\(room)/\(ann)' name='\(ann)'/><item jid='\(room)/\(bob)' name='\(bob)'/></query>"))
        b.send("<presence to='\(room)/\(bob)' type='unavailable'/>")
        #expect(settle(b))
        #expect(items(a, "ann").contains("<query xmlns='http://jabber.org/protocol/disco#items'><item jid='\(room)/\(ann)' name='\(ann)'/></query>"))
        #expect(items(e, "stranger").contains("<item-not-found"), "a members-only room is hidden from others")
    }

    @Test func aMessageToARoomNotJoinedIsRefusedAndNotStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, b, dialog, as: bob, id: "b:join"))
        b.clear()
        let saved = "<extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams>"
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='6b0db884edb3b3d9cddf1330'><body>not in</body>\(saved)</message>")
        #expect(a.read(untilContains: "</message>"))
        #expect(a.received.hasPrefix("<message type='error' id='6b0db884edb3b3d9cddf1330' from='\(f.room(dialog))' to='\(f.jid(ann))/a'><error type='modify'><not-acceptable"))
        // To a room no dialog has: refused as well, so the SDK's error listener hears of both.
        a.clear()
        let nowhere = "\(XMPPTestConstants.applicationId)_53fc460b515c128132016675@muc.\(XMPPTestConstants.domain)"
        a.send("<message type='groupchat' to='\(nowhere)' id='6b0db884edb3b3d9cddf1331'><body>nowhere</body>\(saved)</message>")
        #expect(a.read(untilContains: "</message>") && a.received.contains("type='error' id='6b0db884edb3b3d9cddf1331'"))
        #expect(settle(b) && !b.received.contains("not in"))
        #expect(try f.messageCount() == 0)
    }

    @Test func anUnsavedMessageArrivesAsItWasSentWithNothingAdded() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        // The pair has a private dialog (a saved message made it): still none is named.
        a.send("<message type='chat' to='\(f.jid(bob))' id='6b0db884edb3b3d9cddf1332'><body>saved</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(b.read(untilContains: "<body>saved</body>"))
        #expect(try f.privateDialog(ann, bob) != nil)
        b.clear()
        let params = "<extraParams xmlns='jabber:client'><name>skynet</name><mission>take over the planet</mission></extraParams>"
        a.send("<message type='chat' to='\(f.jid(bob))' id='6b0db884edb3b3d9cddf1333'><body>as sent</body>\(params)<markable xmlns='urn:xmpp:chat-markers:0'/></message>")
        #expect(b.read(untilContains: "</message>"))
        #expect(b.received.contains("id='6b0db884edb3b3d9cddf1333'") && b.received.contains("<body>as sent</body>"))
        #expect(b.received.contains("<name>skynet</name><mission>take over the planet</mission></extraParams>"), "\(b.received)")
        #expect(!b.received.contains("date_sent") && !b.received.contains("dialog_id"), "\(b.received)")
        #expect(try f.messageCount() == 1)
    }
}
