import Testing
@testable import XMPPTransport

/// Carbons (XEP-0280) and QuickBlox system notifications, read from literal XML through
/// libstrophe's own parser, as they come off the wire (docs/protocol.md §7).
@Suite("Carbons and system notifications")
struct CarbonsAndNotificationsTests {
    static let now = 1_800_000_000
    static let me = ChatJID(parsing: "1001-77@chat.quickblox.com/phone")!
    static let dialog = "6b0db884c4ca891d2141e1c9"

    static func parse(_ xml: String, ownJID: ChatJID? = me) throws -> ChatEvent? {
        let stanza = try #require(StanzaElement(parsingWithStrophe: xml), "libstrophe could not parse \(xml)")
        return ChatEvent.parse(stanza, receivedAt: now, ownJID: ownJID)
    }

    // MARK: system notifications

    /// The shape the contract gives for "alice created ops with you in it".
    @Test func aCreatedGroupNotificationIsReadField() throws {
        let xml = """
            <message xmlns="jabber:client" type="headline" id="6b0db895edb3b3d9cddf1331" from="1002-77@chat.quickblox.com/sandbox-1" to="1001-77@chat.quickblox.com">\
            <extraParams xmlns="jabber:client"><moduleIdentifier>SystemNotifications</moduleIdentifier>\
            <notification_type>1</notification_type><dialog_id>\(Self.dialog)</dialog_id><_id>\(Self.dialog)</_id>\
            <name>ops &amp; more</name><type>2</type><occupants_ids>1002,1001,1003</occupants_ids></extraParams></message>
            """
        guard case .systemNotification(let n)? = try Self.parse(xml) else { Issue.record("not a notification"); return }
        #expect(n.kind == .created)
        #expect(n.id == "6b0db895edb3b3d9cddf1331")
        #expect(n.senderUserID == 1002 && n.from?.resource == "sandbox-1")
        #expect(n.dialogID.rawValue == Self.dialog)
        #expect(n.name == "ops & more")
        #expect(n.dialogType == 2)
        #expect(n.occupantIDs == [1002, 1001, 1003])
        #expect(n.fields["moduleIdentifier"] == "SystemNotifications")
    }

    /// Occupants added: `notification_type` 2; the id only as `_id`; loose number shapes.
    @Test func anUpdateWithOnlyUnderscoreIdAndLooseNumbers() throws {
        let xml = """
            <message type="headline" from="1002-77@chat.quickblox.com"><body>extension</body>\
            <extraParams xmlns="jabber:client"><moduleIdentifier> SystemNotifications </moduleIdentifier>\
            <notification_type> 2 </notification_type><_id>\(Self.dialog.uppercased())</_id><type>x</type>\
            <occupants_ids>[1, 2,junk, 3]</occupants_ids></extraParams></message>
            """
        guard case .systemNotification(let n)? = try Self.parse(xml) else { Issue.record("not a notification"); return }
        #expect(n.kind == .updated)
        #expect(n.dialogID.rawValue == Self.dialog, "ids are kept lowercased, as ObjectIds")
        #expect(n.id == nil && n.name == nil)
        #expect(n.dialogType == nil, "a type that is not a number is not guessed")
        #expect(n.occupantIDs == [1, 2, 3])
    }

    @Test func anUnknownNotificationTypeIsKeptAsSent() throws {
        let xml = "<message type='headline'><extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier><notification_type>7</notification_type><dialog_id>\(Self.dialog)</dialog_id></extraParams></message>"
        guard case .systemNotification(let n)? = try Self.parse(xml) else { Issue.record("not a notification"); return }
        #expect(n.kind == .other("7"))
        #expect(n.from == nil && n.senderUserID == nil)
    }

    /// Garbage is never half-read: no usable dialog id, another module, not a headline.
    @Test(arguments: [
        "<message type='headline'><extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier><dialog_id>../../etc/passwd</dialog_id></extraParams></message>",
        "<message type='headline'><extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier><notification_type>1</notification_type></extraParams></message>",
        "<message type='headline'><extraParams xmlns='jabber:client'><moduleIdentifier>WebRTCVideoChat</moduleIdentifier><dialog_id>6b0db884c4ca891d2141e1c9</dialog_id></extraParams></message>",
        "<message type='headline'><body>news</body></message>",
        "<message type='headline'><extraParams xmlns='jabber:client'><moduleIdentifier><x>SystemNotifications</x></moduleIdentifier><dialog_id>6b0db884c4ca891d2141e1c9</dialog_id></extraParams></message>",
    ])
    func garbageHeadlinesAreIgnored(_ xml: String) throws {
        #expect(try Self.parse(xml) == nil)
    }

    @Test func theSameFieldsInAChatMessageAreNotANotification() throws {
        let xml = "<message type='chat' from='1002-77@c/r' id='6b0db884c4ca891d2141e1ca'><body>hi</body><extraParams xmlns='jabber:client'><moduleIdentifier>SystemNotifications</moduleIdentifier><dialog_id>\(Self.dialog)</dialog_id></extraParams></message>"
        guard case .message(let m)? = try Self.parse(xml) else { Issue.record("not a message"); return }
        #expect(m.body == "hi")
    }

    // MARK: carbons

    /// What another of our devices sent to bob, as the sandbox (and Prosody) forward it.
    @Test func aSentCarbonFromOurOwnAccountIsOurMessageToThePeer() throws {
        let xml = """
            <message from="1001-77@chat.quickblox.com" to="1001-77@chat.quickblox.com/phone" type="chat">\
            <sent xmlns="urn:xmpp:carbons:2"><forwarded xmlns="urn:xmpp:forward:0">\
            <message xmlns="jabber:client" from="1001-77@chat.quickblox.com/laptop" to="1002-77@chat.quickblox.com" type="chat" id="6b0db884edb3b3d9cddf1330">\
            <body>from the laptop</body><extraParams xmlns="jabber:client"><save_to_history>1</save_to_history>\
            <dialog_id>\(Self.dialog)</dialog_id><date_sent>1796061316</date_sent></extraParams></message>\
            </forwarded></sent></message>
            """
        guard case .carbon(let c)? = try Self.parse(xml) else { Issue.record("not a carbon"); return }
        #expect(c.direction == .sent)
        #expect(c.message.senderUserID == 1001)
        #expect(c.peer?.userID == 1002)
        #expect(c.message.id == "6b0db884edb3b3d9cddf1330")
        #expect(c.message.dialogID?.rawValue == Self.dialog)
        #expect(c.message.dateSent == 1_796_061_316)
        #expect(c.message.body == "from the laptop")
    }

    @Test func aSentCopyWithoutFromIsStillOurs() throws {
        let xml = "<message from='1001-77@chat.quickblox.com' type='chat'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' to='1003-77@chat.quickblox.com' type='chat'><body>x</body></message></forwarded></sent></message>"
        guard case .carbon(let c)? = try Self.parse(xml) else { Issue.record("not a carbon"); return }
        #expect(c.message.senderUserID == 1001 && c.peer?.userID == 1003)
        #expect(c.message.id == "" && c.message.dialogID == nil)
    }

    @Test func aReceivedCarbonIsTheirMessageToUs() throws {
        let xml = "<message from='1001-77@CHAT.quickblox.com' type='chat'><received xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' from='1002-77@chat.quickblox.com/web' to='1001-77@chat.quickblox.com/laptop' type='chat' id='6b0db884edb3b3d9cddf1332'><body>to the laptop</body></message></forwarded></received></message>"
        guard case .carbon(let c)? = try Self.parse(xml) else { Issue.record("not a carbon"); return }
        #expect(c.direction == .received)
        #expect(c.message.senderUserID == 1002 && c.peer?.userID == 1002)
        #expect(c.message.body == "to the laptop")
    }

    /// Only our own bare JID may forward copies (XEP-0280 §11): anything else is a forgery.
    @Test(arguments: [
        ("from another user", "1002-77@chat.quickblox.com", Optional(me)),
        ("from our full JID", "1001-77@chat.quickblox.com/laptop", Optional(me)),
        ("from the server", "chat.quickblox.com", Optional(me)),
        ("before we know who we are", "1001-77@chat.quickblox.com", nil),
    ])
    func forgedCarbonsAreIgnored(_ label: String, from: String, ownJID: ChatJID?) throws {
        let xml = "<message from='\(from)' type='chat'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' from='1001-77@chat.quickblox.com/x' to='1002-77@chat.quickblox.com' type='chat' id='6b0db884edb3b3d9cddf1333'><body>words in our mouth</body></message></forwarded></sent></message>"
        #expect(try Self.parse(xml, ownJID: ownJID) == nil, "\(label)")
    }

    @Test func aCarbonWithoutFromIsIgnoredToo() throws {
        let xml = "<message type='chat'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' to='1002-77@c' type='chat'><body>x</body></message></forwarded></sent></message>"
        #expect(try Self.parse(xml) == nil)
    }

    /// Copies of markers or typing, and of anything but a 1:1 chat, are not messages to show.
    @Test(arguments: [
        "<message xmlns='jabber:client' from='1001-77@chat.quickblox.com/x' to='1002-77@c' type='chat'><displayed xmlns='urn:xmpp:chat-markers:0' id='m1'/></message>",
        "<message xmlns='jabber:client' from='77_\(dialog)@muc.c/1001' to='1001-77@c' type='groupchat'><body>x</body></message>",
        "<message xmlns='jabber:client' from='1001-77@chat.quickblox.com/x' to='1002-77@c' type='normal'><body>x</body></message>",
    ])
    func carbonsOfOtherThingsAreIgnored(_ inner: String) throws {
        let xml = "<message from='1001-77@chat.quickblox.com' type='chat'><sent xmlns='urn:xmpp:carbons:2'><forwarded xmlns='urn:xmpp:forward:0'>\(inner)</forwarded></sent></message>"
        #expect(try Self.parse(xml) == nil)
    }

    // MARK: plain clients

    /// A plain XMPP client's message: no id, no extraParams. It is still a message; the
    /// listener files it under the private dialog with its sender.
    @Test func aPlainClientsMessageHasNeitherIdNorDialog() throws {
        guard case .message(let m)? = try Self.parse("<message type='chat' from='1002-77@chat.quickblox.com/gajim' to='1001-77@chat.quickblox.com'><body>hello from gajim</body></message>") else {
            Issue.record("not a message"); return
        }
        #expect(m.id == "" && m.dialogID == nil)
        #expect(m.senderUserID == 1002 && m.dateSent == Self.now)
    }
}
