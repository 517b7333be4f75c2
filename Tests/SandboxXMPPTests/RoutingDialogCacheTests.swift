// The router keeps the dialogs it routes by between messages (ChatStore.routingDialog): a
// change over REST must reach the next message at once.
import Foundation
import Testing
import SandboxStorage
@testable import SandboxXMPP

@Suite(.serialized) struct RoutingDialogCacheTests {
    static func join(_ f: MessagingFixture, _ client: RawXMPPClient, _ dialogId: String, as userId: Int) -> Bool {
        client.send("<presence to='\(f.room(dialogId))/\(userId)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")
        let joined = client.read(until: { $0.contains("</subject>") || $0.contains("<subject/>") })
        return joined
    }

    static func post(_ body: String, to room: String) -> String {
        "<message type='groupchat' to='\(room)'><body>\(body)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
    }

    /// Everything the server sent `client` up to now has arrived once a ping's reply has.
    static func drained(_ client: RawXMPPClient) -> Bool {
        client.send("<iq type='get' id='drain' to='localhost'><ping xmlns='urn:xmpp:ping'/></iq>")
        return client.read(untilContains: "id='drain'")
    }

    @Test func someoneRemovedOverRESTGetsNoMoreOfTheGroupAndARenameIsTheNextSubject() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let dialog = try f.group(owner: ann, [bob, cat], name: "before")
        let a = try f.connect(ann, "ann", resource: "a"), b = try f.connect(bob, "bob", resource: "b")
        let c = try f.connect(cat, "cat", resource: "c")
        #expect(Self.join(f, a, dialog, as: ann) && Self.join(f, b, dialog, as: bob) && Self.join(f, c, dialog, as: cat))
        a.send(Self.post("one", to: f.room(dialog)))
        #expect(b.read(untilContains: "<body>one</body>") && c.read(untilContains: "<body>one</body>"))

        a.clear()
        b.clear()
        c.clear()
        let (status, _) = try f.rest(.put, "/chat/Dialog/\(dialog).json", form: "pull_all[occupants_ids][]=\(cat)&name=after", as: ann)
        #expect(status == 200)
        // Cat is shown out as QuickBlox's SDKs read a kick: 301, with Ann, who removed her, as the actor ...
        #expect(c.read(untilContains: "type='unavailable'") && c.read(untilContains: "</presence>"))
        #expect(c.received.contains("<presence from='\(f.room(dialog))/\(cat)' to='\(f.jid(cat))/c' type='unavailable'><x xmlns='http://jabber.org/protocol/muc#user'><item affiliation='none' role='none'><actor jid='\(f.jid(ann))'/></item><status code='301'/></x></presence>"))
        // ... and the others see her leave, as any leave reads.
        #expect(a.read(untilContains: "type='unavailable'") && b.read(untilContains: "type='unavailable'"))
        #expect(b.received.contains("<presence from='\(f.room(dialog))/\(cat)' to='\(f.jid(bob))/b' type='unavailable'>"))
        #expect(!b.received.contains("code='301'"))
        #expect(try f.server.withStorage { _, _, xmpp in xmpp.router.muc.joinedUsers(dialog) } == [ann, bob])
        a.send(Self.post("two", to: f.room(dialog)))
        #expect(b.read(untilContains: "<body>two</body>"))
        #expect(Self.drained(c))
        #expect(!c.received.contains("<body>two</body>"))

        let b2 = try f.connect(bob, "bob", resource: "b2")
        #expect(Self.join(f, b2, dialog, as: bob))
        #expect(b2.received.contains("<subject>after</subject>"))
    }

    @Test func aDeletedPrivateDialogIsNotTheOneANewMessageGoesTo() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let first = try #require(try f.server.withStorage { store, _, _ in
            try store.createDialog(type: .privateChat, name: nil, photo: nil, ownerId: ann, occupants: [bob]).id
        })
        let a = try f.connect(ann, "ann", resource: "a")
        try f.enableAcks(a)
        func say(_ body: String) -> String {
            "<message type='chat' to='\(f.jid(bob))'><body>\(body)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>"
        }
        a.send(say("before"))
        #expect(f.ack(a, expecting: 1))
        #expect(try f.privateDialog(ann, bob)?.lastMessage == "before")
        try f.server.withStorage { store, _, _ in try store.deleteDialog(id: first) }
        a.send(say("after"))
        #expect(f.ack(a, expecting: 2))
        let now = try #require(try f.privateDialog(ann, bob))
        #expect(now.id != first && now.lastMessage == "after")
    }
}
