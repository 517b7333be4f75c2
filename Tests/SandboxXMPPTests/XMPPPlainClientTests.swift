// What the sandbox does for clients that are not QuickBlox SDKs, and for what the SDKs
// send beside chat (docs/protocol.md §7): plain XMPP messages, carbons, system notifications.
import Foundation
import Testing
import SandboxStorage
import SandboxXMPP

@Suite("XMPP plain clients, carbons and headlines", .serialized)
struct XMPPPlainClientTests {
    /// A plain client (no extraParams, no id) writing to someone it has no dialog with:
    /// the private dialog is created, the message stored under a fresh ObjectId, and the
    /// recipient gets that id, the dialog id and date_sent.
    @Test func aPlainMessageCreatesTheDialogAndIsStoredAndRoutedWithIdsAndDate() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "b")
        let gajim = try f.connect(ann, "ann", resource: "gajim")
        try f.enableAcks(gajim)
        #expect(try f.privateDialog(ann, bob) == nil)
        let before = Int(Date().timeIntervalSince1970)
        gajim.send("<message type='chat' to='\(f.jid(bob))'><body>hello from gajim</body></message>")
        #expect(f.ack(gajim, expecting: 1))
        let dialog = try #require(try f.privateDialog(ann, bob), "the first plain message made the dialog")
        #expect(dialog.type == 3 && Set(dialog.occupantIds) == [ann, bob])
        #expect(receiver.read(untilContains: "</message>"))
        let got = receiver.received
        #expect(got.contains("from='\(f.jid(ann))/gajim'") && got.contains("<body>hello from gajim</body>"))
        let id = try #require(attribute("id", in: got))
        #expect(ObjectIdGenerator.isValid(id))
        #expect(elementText("dialog_id", in: got) == dialog.id)
        let dateSent = try #require(elementText("date_sent", in: got).flatMap { Int($0) })
        #expect(dateSent >= before && dateSent <= before + 5)
        let stored = try #require(try f.message(id), "stored under the id it was routed with")
        #expect(stored.dialogId == dialog.id && stored.body == "hello from gajim" && stored.senderId == ann && stored.recipientId == bob)
        #expect(stored.dateSent == dateSent)
        #expect(dialog.lastMessageId == id)
    }

    /// A plain client's own id that is no ObjectId is replaced (a QuickBlox `_id` is one) and
    /// handed on as its XEP-0359 origin-id; the next plain message finds the dialog the first one made.
    @Test func aPlainClientsOwnIdIsReplacedAndTheDialogIsFoundAgain() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "b")
        let plain = try f.connect(ann, "ann", resource: "p")
        try f.enableAcks(plain)
        plain.send("<message type='chat' to='\(f.jid(bob))' id='purple-1'><body>one</body></message>")
        plain.send("<message type='chat' to='\(f.jid(bob))' id='\(objectId(77))'><body>two</body></message>")
        #expect(f.ack(plain, expecting: 2))
        #expect(receiver.read(until: { occurrences("</message>", in: $0) == 2 }))
        #expect(!receiver.received.contains("id='purple-1'>"), "not the message's id")
        #expect(receiver.received.contains("<origin-id xmlns='urn:xmpp:sid:0' id='purple-1'/>"))
        #expect(receiver.received.contains("id='\(objectId(77))'"), "an ObjectId of its own is kept")
        #expect(try f.messageCount() == 2)
        let dialog = try #require(try f.privateDialog(ann, bob))
        let dialogIds = receiver.received.components(separatedBy: "<dialog_id>").dropFirst().map { $0.prefix(24) }
        #expect(dialogIds.count == 2 && dialogIds.allSatisfy { $0 == dialog.id })
    }

    /// An SDK message that asks not to be saved stays unsaved, but still gets an id.
    @Test func anUnsavedSDKMessageWithoutIdGetsOneAndIsNotStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let receiver = try f.connect(bob, "bob", resource: "b")
        let sender = try f.connect(ann, "ann", resource: "s")
        sender.send("<message type='chat' to='\(f.jid(bob))'><body>fleeting</body><extraParams xmlns='jabber:client'><save_to_history>0</save_to_history></extraParams></message>")
        #expect(receiver.read(untilContains: "</message>"))
        let id = try #require(attribute("id", in: receiver.received))
        #expect(ObjectIdGenerator.isValid(id))
        #expect(try f.messageCount() == 0)
    }

    /// Addressed to one resource: only it gets the message, the user's other
    /// carbons-enabled resources a `received` copy; to the bare JID, every resource.
    @Test func aMessageToOneResourceIsCopiedToTheOthersWithCarbons() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let desk = try f.connect(ann, "ann", resource: "desk"), phone = try f.connect(ann, "ann", resource: "phone")
        let tablet = try f.connect(ann, "ann", resource: "tablet")
        for client in [desk, phone] {
            client.send("<iq type='set' id='c'><enable xmlns='urn:xmpp:carbons:2'/></iq>")
            #expect(client.read(untilContains: "id='c'"))
            client.clear()
        }
        let bobClient = try f.connect(bob, "bob", resource: "b")
        try f.enableAcks(bobClient)
        bobClient.send("<message type='chat' to='\(f.jid(ann))/desk' id='\(objectId(21))'><body>for the desk</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(bobClient, expecting: 1))
        #expect(desk.read(untilContains: "for the desk"))
        #expect(!desk.received.contains("<received xmlns='urn:xmpp:carbons:2'>"))
        #expect(phone.read(untilContains: "</received>"))
        #expect(phone.received.contains("<message from='\(f.jid(ann))' to='\(f.jid(ann))/phone' type='chat'><received xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client'"))
        #expect(phone.received.contains("from='\(f.jid(bob))/b'") && phone.received.contains("<body>for the desk</body>"))
        #expect(elementText("dialog_id", in: phone.received) != nil)
        for client in [phone, tablet] { client.clear() }

        bobClient.send("<message type='chat' to='\(f.jid(ann))' id='\(objectId(22))'><body>for everyone</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(f.ack(bobClient, expecting: 2))
        for client in [desk, phone, tablet] { #expect(client.read(untilContains: "for everyone")) }
        phone.read(until: { _ in false }, timeout: 0.3)
        #expect(!phone.received.contains("<received xmlns='urn:xmpp:carbons:2'>"), "everyone had it directly")
        #expect(!tablet.received.contains("for the desk"), "no carbons asked for, no copies")
    }

    /// A system notification is passed on as sent (never stored, no dialog made, no
    /// QuickBlox fields added, no carbons); an unknown user bounces it.
    @Test func headlinesAreRoutedAsTheyAreAndNeverStored() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let phone = try f.connect(bob, "bob", resource: "phone"), desk = try f.connect(bob, "bob", resource: "desk")
        let annDesk = try f.connect(ann, "ann", resource: "desk"), annPhone = try f.connect(ann, "ann", resource: "phone")
        annPhone.send("<iq type='set' id='c'><enable xmlns='urn:xmpp:carbons:2'/></iq>")
        #expect(annPhone.read(untilContains: "id='c'"))
        annPhone.clear()
        try f.enableAcks(annDesk)
        let dialog = objectId(500)
        let fields = "<moduleIdentifier>SystemNotifications</moduleIdentifier><notification_type>1</notification_type><_id>\(dialog)</_id><name>ops</name><type>2</type><occupants_ids>\(ann),\(bob)</occupants_ids></extraParams>"
        let params = "<extraParams xmlns='jabber:client'>" + fields
        annDesk.send("<message type='headline' to='\(f.jid(bob))' id='\(objectId(501))'>\(params)</message>")
        annDesk.send("<message type='headline' to='\(f.jid(bob))/desk' id='\(objectId(502))'><body>just the desk</body>\(params)</message>")
        annDesk.send("<message type='headline' to='999-7@localhost' id='\(objectId(503))'>\(params)</message>")
        #expect(f.ack(annDesk, expecting: 3))
        for client in [phone, desk] {
            #expect(client.read(untilContains: "id='\(objectId(501))'"))
            #expect(client.received.contains("type='headline'") && client.received.contains("from='\(f.jid(ann))/desk'"))
            #expect(client.received.contains(fields), "the notification's fields arrive as sent")
            #expect(!client.received.contains("<dialog_id>") && !client.received.contains("<date_sent>"))
        }
        #expect(desk.read(untilContains: "just the desk"))
        phone.read(until: { _ in false }, timeout: 0.3)
        #expect(!phone.received.contains("just the desk"))
        #expect(annDesk.read(untilContains: "id='\(objectId(503))'") && annDesk.received.contains("<service-unavailable"))
        #expect(!annPhone.received.contains("SystemNotifications"), "headlines are not carbon-copied")
        #expect(try f.messageCount() == 0)
        #expect(try f.privateDialog(ann, bob) == nil)
    }
}

/// The value of the first `name='…'` attribute in `xml`.
func attribute(_ name: String, in xml: String) -> String? {
    guard let start = xml.range(of: " \(name)='"), let end = xml[start.upperBound...].firstIndex(of: "'") else { return nil }
    return String(xml[start.upperBound..<end])
}
