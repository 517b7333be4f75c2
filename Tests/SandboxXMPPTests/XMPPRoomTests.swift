// Group dialogs as MUC rooms the way standard XMPP clients expect them (XEP-0045, docs/protocol.md
// §7 "Group dialogs"): a join's answer in order, history as asked, the subject, presence changes,
// service discovery, and message ids for senders whose ids are no ObjectIds (XEP-0359).
import Foundation
import Testing
import SandboxStorage
import SandboxXMPP

@Suite("XMPP rooms as XEP-0045 describes them", .serialized)
struct XMPPRoomTests {
    private func joinPresence(_ f: MessagingFixture, _ dialogId: String, nick: String, history: String? = "<history maxstanzas='0'/>") -> String {
        "<presence to='\(f.room(dialogId))/\(nick)'><x xmlns='http://jabber.org/protocol/muc'>\(history ?? "")</x></presence>"
    }

    /// Joins and reads up to the subject, which ends a join.
    @discardableResult
    private func join(_ f: MessagingFixture, _ client: RawXMPPClient, _ dialogId: String, as userId: Int,
                      history: String? = "<history maxstanzas='0'/>") -> Bool {
        client.send(joinPresence(f, dialogId, nick: String(userId), history: history))
        return client.read(until: { $0.contains("</subject>") || $0.contains("<subject/>") })
    }

    private func position(of needle: String, in text: String) -> String.Index? { text.range(of: needle)?.lowerBound }

    /// Ann's group with Bob, both joined (Ann on `annResource`, with acks when asked), all joins read.
    private struct JoinedPair {
        let ann: Int, bob: Int, dialog: String
        let a: RawXMPPClient, b: RawXMPPClient
    }

    private func joinedPair(_ f: MessagingFixture, annResource: String = "a", acks: Bool = false) throws -> JoinedPair {
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let a = try f.connect(ann, "ann", resource: annResource), b = try f.connect(bob, "bob", resource: "b")
        if acks { try f.enableAcks(a) }
        #expect(join(f, a, dialog, as: ann) && join(f, b, dialog, as: bob))
        a.read(until: { _ in false }, timeout: 0.2)   // Bob's arrival
        a.clear()
        b.clear()
        return JoinedPair(ann: ann, bob: bob, dialog: dialog, a: a, b: b)
    }

    @Test func aJoinIsOccupantsThenOurselvesThenHistoryThenTheSubject() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob], name: "ops & co")
        let first = try f.post("first", in: dialog, from: ann)
        let second = try f.post("second", in: dialog, from: bob)
        let third = try f.post("third", in: dialog, from: ann)
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, a, dialog, as: ann))
        #expect(!a.received.contains("<body>"), "maxstanzas='0': no history")
        a.clear()

        b.send(joinPresence(f, dialog, nick: String(bob), history: "<history maxstanzas='2'/>"))
        #expect(b.read(untilContains: "</subject>"))
        let got = b.received
        let room = f.room(dialog)
        let annPresence = try #require(position(of: "<presence from='\(room)/\(ann)'", in: got))
        let selfPresence = try #require(position(of: "<status code='110'/>", in: got))
        let secondMessage = try #require(position(of: "<body>second</body>", in: got))
        let thirdMessage = try #require(position(of: "<body>third</body>", in: got))
        let subject = try #require(position(of: "<subject>ops &amp; co</subject>", in: got))
        #expect(annPresence < selfPresence && selfPresence < secondMessage && secondMessage < thirdMessage && thirdMessage < subject)
        #expect(!got.contains("<body>first</body>") && !got.contains(first))
        // History as first sent: from the sender's occupant JID, under the stored id, with a delay from the room.
        #expect(got.contains("<message type='groupchat' from='\(room)/\(bob)' to='\(f.jid(bob))/b' id='\(second)'>"))
        #expect(got.contains("<message type='groupchat' from='\(room)/\(ann)' to='\(f.jid(bob))/b' id='\(third)'>"))
        #expect(got.contains("<delay xmlns='urn:xmpp:delay' from='\(room)' stamp='"))
        #expect(got.contains("<stanza-id xmlns='urn:xmpp:sid:0' id='\(third)' by='\(room)'/>"))
        #expect(elementText("dialog_id", in: got) == dialog)
        // The subject comes from the room itself.
        #expect(got.contains("<message type='groupchat' from='\(room)' to='\(f.jid(bob))/b' id='"))
        // Ann hears of Bob (his real JID: the room is non-anonymous) and nothing of the history.
        #expect(a.read(untilContains: "<presence from='\(room)/\(bob)'"))
        #expect(a.received.contains("jid='\(f.jid(bob))/b'") && !a.received.contains("<body>"))
    }

    @Test func historyFollowsMaxcharsSecondsSinceAndTheDefault() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let dialog = try f.group(owner: ann, [])
        for text in ["one", "two", "three"] { _ = try f.post(text, in: dialog, from: ann) }
        func history(_ element: String?) throws -> [String] {
            let client = try f.connect(ann, "ann", resource: "h\(Int.random(in: 0...1_000_000))")
            #expect(join(f, client, dialog, as: ann, history: element))
            return ["one", "two", "three"].filter { client.received.contains("<body>\($0)</body>") }
        }
        #expect(try history(nil) == ["one", "two", "three"], "no <history/>: the room's default, 20")
        #expect(try history("<history maxchars='0'/>") == [])
        #expect(try history("<history since='2000-01-01T00:00:00Z'/>") == ["one", "two", "three"])
        #expect(try history("<history since='2100-01-01T00:00:00Z'/>") == [])
        #expect(try history("<history seconds='3600' maxstanzas='1'/>") == ["three"])
        // Each history stanza is well over 100 characters: 100 leaves none, a generous count all.
        #expect(try history("<history maxchars='100'/>") == [])
        #expect(try history("<history maxchars='100000'/>") == ["one", "two", "three"])
    }

    @Test func aMessageDeletedForTheJoinerIsNotInItsHistory() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let hidden = try f.post("hidden from bob", in: dialog, from: ann)
        _ = try f.post("visible", in: dialog, from: ann)
        try f.server.withStorage { store, _, _ in
            guard let message = try store.message(id: hidden) else { throw TestFailure("no message") }
            try store.hideMessage(message, from: bob)
        }
        let b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, b, dialog, as: bob, history: nil))
        #expect(b.received.contains("<body>visible</body>") && !b.received.contains("hidden from bob"))
    }

    @Test func anEmptyNameIsAnEmptySubject() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let dialog = try f.group(owner: ann, [], name: "")
        let a = try f.connect(ann, "ann", resource: "a")
        a.send(joinPresence(f, dialog, nick: String(ann)))
        #expect(a.read(untilContains: "<subject/></message>"))
    }

    /// QuickBlox's SDKs know their own join by the `:join` ending of its id, and would hand the
    /// subject to the app as a chat message from nobody: they get the join without it, its id
    /// and status 110 first, as from the hosted service; a chat message after it comes next.
    @Test func aQuickBloxSDKJoinEndsAtItsOwnPresenceWithoutASubject() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob], name: "team")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        #expect(join(f, a, dialog, as: ann))
        b.send("<presence id='5c0e7f2e-0d1c-4c8a-9f7e-1d2c3b4a5e6f:join' to='\(f.room(dialog))/\(bob)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
        #expect(b.read(untilContains: "<status code='110'/>"))
        #expect(b.received.contains("id='5c0e7f2e-0d1c-4c8a-9f7e-1d2c3b4a5e6f:join'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='member' role='participant' jid='\(f.jid(bob))/b'/><status code='110'/>"))
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='m1'><body>after the join</body></message>")
        #expect(b.read(untilContains: "after the join"))
        #expect(!b.received.contains("<subject"), "got \(b.received)")
    }

    @Test func theNickIsTheUserIdWhateverWasAsked() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let dialog = try f.group(owner: ann, [])
        let a = try f.connect(ann, "ann", resource: "a")
        a.send(joinPresence(f, dialog, nick: "fancy"))
        #expect(a.read(untilContains: "</subject>"))
        #expect(a.received.contains("<presence from='\(f.room(dialog))/\(ann)'"))
        #expect(a.received.contains("<status code='110'/><status code='100'/><status code='210'/>"), "XEP-0045 §7.2.10: the room changed the nick")
        #expect(!a.received.contains("/fancy"))
    }

    @Test func aPresenceWhileJoinedIsAChangeAndLeavingIsAnnounced() throws {
        let f = try MessagingFixture()
        let pair = try joinedPair(f)
        let (ann, bob, dialog, a, b) = (pair.ann, pair.bob, pair.dialog, pair.a, pair.b)
        b.send("<presence to='\(f.room(dialog))/\(bob)'><show>away</show><status>lunch</status></presence>")
        #expect(a.read(untilContains: "<show>away</show><status>lunch</status>"))
        #expect(a.received.contains("<presence from='\(f.room(dialog))/\(bob)' to='\(f.jid(ann))/a'>"))
        #expect(b.read(untilContains: "<status code='110'/>"))
        b.read(until: { _ in false }, timeout: 0.2)
        #expect(!b.received.contains("<subject"), "a change is not a join")
        // Someone joining now sees Bob as he is.
        let c = try f.connect(ann, "ann", resource: "c")
        #expect(join(f, c, dialog, as: ann))
        #expect(c.received.contains("<show>away</show>"))
        a.clear()
        b.send("<presence to='\(f.room(dialog))/\(bob)' type='unavailable'/>")
        #expect(a.read(untilContains: "type='unavailable'"))
        #expect(a.received.contains("<item affiliation='member' role='none' jid='\(f.jid(bob))/b'/>"))
    }

    @Test func discoveryFindsTheServiceAndDescribesTheRoomsItsUserMayEnter() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let dialog = try f.group(owner: ann, [bob], name: "ops")
        let open = try f.group(owner: ann, [], name: "lobby", type: .publicGroup)
        let b = try f.connect(bob, "bob", resource: "b"), e = try f.connect(eve, "eve", resource: "e")
        func ask(_ client: RawXMPPClient, _ id: String, to: String, _ namespace: String) -> String {
            client.clear()
            client.send("<iq type='get' id='\(id)' to='\(to)'><query xmlns='\(namespace)'/></iq>")
            client.read(until: { $0.contains("id='\(id)'") && ($0.hasSuffix("</iq>") || $0.hasSuffix("/>")) })
            return client.received
        }
        let info = "http://jabber.org/protocol/disco#info", items = "http://jabber.org/protocol/disco#items"
        #expect(ask(b, "i1", to: "localhost", items).contains("<item jid='muc.localhost' name='Group dialogs'/>"))
        let service = ask(b, "i2", to: "muc.localhost", info)
        #expect(service.contains("<identity category='conference' type='text'") && service.contains("<feature var='http://jabber.org/protocol/muc'/>"))
        let rooms = ask(b, "i3", to: "muc.localhost", items)
        #expect(rooms.contains("<item jid='\(f.room(dialog))' name='ops'/>") && !rooms.contains(open), "bob's groups only")
        let room = ask(b, "i4", to: f.room(dialog), info)
        #expect(room.contains("type='result'") && room.contains("<identity category='conference' type='text' name='ops'/>"))
        for feature in ["http://jabber.org/protocol/muc", "muc_membersonly", "muc_persistent", "muc_nonanonymous", "muc_hidden",
                        "http://jabber.org/protocol/muc#stable_id"] {
            #expect(room.contains("<feature var='\(feature)'/>"), "\(feature)")
        }
        #expect(ask(b, "i5", to: f.room(dialog), items).contains("<query xmlns='\(items)'/>"))
        // Eve is not in it: as far as she can tell, there is no such room. A public group is open to her.
        #expect(ask(e, "i6", to: f.room(dialog), info).contains("<item-not-found"))
        let lobby = ask(e, "i7", to: f.room(open), info)
        #expect(lobby.contains("<feature var='muc_open'/>") && lobby.contains("<feature var='muc_public'/>") && !lobby.contains("muc_membersonly"))
        #expect(ask(e, "i8", to: "7_0123456789abcdef01234567@muc.localhost", info).contains("<item-not-found"))
    }

    @Test func aPingToOurOccupantJIDSaysWhetherWeAreStillJoined() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann")
        let dialog = try f.group(owner: ann, [])
        let a = try f.connect(ann, "ann", resource: "a")
        a.send("<iq type='get' id='p1' to='\(f.room(dialog))/\(ann)'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(a.read(untilContains: "id='p1'"))
        #expect(a.read(untilContains: "<not-acceptable"))
        #expect(join(f, a, dialog, as: ann))
        a.clear()
        a.send("<iq type='get' id='p2' to='\(f.room(dialog))/\(ann)'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(a.read(untilContains: "id='p2'"))
        #expect(a.received.contains("<iq type='result' id='p2'"))
    }

    @Test func theSubjectIsTheDialogsNameAndCannotBeSetOverChat() throws {
        let f = try MessagingFixture()
        let pair = try joinedPair(f)
        let (dialog, a, b) = (pair.dialog, pair.a, pair.b)
        a.send("<message type='groupchat' to='\(f.room(dialog))' id='s1'><subject>new topic</subject></message>")
        #expect(a.read(untilContains: "type='error'"))
        #expect(a.received.contains("<forbidden"))
        b.read(until: { _ in false }, timeout: 0.3)
        #expect(!b.received.contains("new topic"))
    }

    /// A standard client's group message (no extraParams, an id of its own): stored like an SDK's,
    /// reflected to the sending connection under its own id (XEP-0045 stable ids), to everyone else
    /// under the stored ObjectId with the sender's id as origin-id; a resend is not stored again.
    @Test func aPlainGroupMessageIsStoredOnceAndCarriesBothIds() throws {
        let f = try MessagingFixture()
        let pair = try joinedPair(f, annResource: "slix", acks: true)
        let (ann, dialog, slix, b) = (pair.ann, pair.dialog, pair.a, pair.b)
        let stanza = "<message type='groupchat' to='\(f.room(dialog))' id='9f1c2b7e-uuid'><body>hello from a plain client</body></message>"
        slix.send(stanza)
        #expect(slix.read(untilContains: "hello from a plain client"))
        #expect(b.read(untilContains: "hello from a plain client"))
        let stored = try #require(try f.server.withStorage { store, _, _ in
            try store.messages(dialogId: dialog, filters: [], descending: false, limit: 10, skip: 0).map(MessageSnapshot.init)
        }.first)
        #expect(ObjectIdGenerator.isValid(stored.id) && stored.originId == "9f1c2b7e-uuid" && stored.senderId == ann)
        #expect(slix.received.contains("id='9f1c2b7e-uuid'>") && slix.received.contains("<stanza-id xmlns='urn:xmpp:sid:0' id='\(stored.id)' by='\(f.room(dialog))'/>"))
        #expect(b.received.contains("id='\(stored.id)'>") && b.received.contains("<origin-id xmlns='urn:xmpp:sid:0' id='9f1c2b7e-uuid'/>"))
        // The same stanza again (a resend after a reconnect): acknowledged, not stored or delivered again.
        slix.clear()
        b.clear()
        slix.send(stanza)
        #expect(f.ack(slix, expecting: 3))   // the join presence, the message, its resend
        b.read(until: { _ in false }, timeout: 0.3)
        #expect(!b.received.contains("hello from a plain client") && !slix.received.contains("hello from a plain client"))
        #expect(try f.messageCount() == 1)
        // Another text under the same id is another message.
        slix.send("<message type='groupchat' to='\(f.room(dialog))' id='9f1c2b7e-uuid'><body>and another</body></message>")
        #expect(b.read(untilContains: "and another"))
        #expect(try f.messageCount() == 2)
    }

    /// A marker names the id its sender saw (the stored ObjectId); it reaches the message's sender
    /// under the id that sender gave the message, and counts for it.
    @Test func aMarkerReachesAPlainSenderUnderItsOwnId() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let plain = try f.connect(ann, "ann", resource: "p"), b = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(b)
        plain.send("<message type='chat' to='\(f.jid(bob))' id='mine-1'><body>mark me</body><markable xmlns='urn:xmpp:chat-markers:0'/></message>")
        #expect(b.read(untilContains: "mark me"))
        let stored = try #require(attribute("id", in: b.received))
        #expect(ObjectIdGenerator.isValid(stored))
        b.send("<message type='chat' to='\(f.jid(ann))' id='m1'><received xmlns='urn:xmpp:chat-markers:0' id='\(stored)'/></message>")
        #expect(f.ack(b, expecting: 1))
        #expect(plain.read(untilContains: "<received xmlns='urn:xmpp:chat-markers:0' id='mine-1'/>"))
        #expect(try f.message(stored)?.deliveredIds.contains(bob) == true)
        // A marker naming the sender's own id counts too.
        b.send("<message type='chat' to='\(f.jid(ann))' id='m2'><displayed xmlns='urn:xmpp:chat-markers:0' id='mine-1'/></message>")
        #expect(f.ack(b, expecting: 2))
        #expect(plain.read(untilContains: "<displayed xmlns='urn:xmpp:chat-markers:0' id='mine-1'/>"))
        #expect(try f.message(stored)?.readIds.contains(bob) == true)
    }
}
