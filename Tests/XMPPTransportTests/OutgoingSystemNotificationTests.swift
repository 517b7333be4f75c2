import Testing
import XMPPTransport

/// The dialog announcement of docs/protocol.md §7, byte for byte.
@Suite("Outgoing system notifications")
struct OutgoingSystemNotificationTests {
    static let id = ObjectID("65600000deadbeef01000002")!
    static let bob = ChatJID.user(1002, appID: 77, domain: "chat.quickblox.com")
    static let room = ChatJID.room(dialogID: "5d75393ba28f9a17e1cb0f9e", appID: 77, mucDomain: "muc.chat.quickblox.com")

    @Test func groupCreatedIsAHeadlineWithTheDialogsFields() {
        let notification = OutgoingSystemNotification(
            id: Self.id, to: Self.bob.with(resource: "phone"), kind: .dialogCreated, dialogID: "5d75393ba28f9a17e1cb0f9e",
            dialogType: 2, name: "ops & <friends>", occupantIDs: [1001, 1002, 1003], roomJID: Self.room, dateSent: 1_700_000_000)
        #expect(notification.validationProblem == nil)
        #expect(notification.xml == """
        <message type="headline" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000002">\
        <extraParams xmlns="jabber:client"><moduleIdentifier>SystemNotifications</moduleIdentifier>\
        <notification_type>1</notification_type><dialog_id>5d75393ba28f9a17e1cb0f9e</dialog_id>\
        <_id>5d75393ba28f9a17e1cb0f9e</_id><type>2</type><name>ops &amp; &lt;friends&gt;</name>\
        <occupants_ids>1001,1002,1003</occupants_ids>\
        <xmpp_room_jid>77_5d75393ba28f9a17e1cb0f9e@muc.chat.quickblox.com</xmpp_room_jid>\
        <date_sent>1700000000</date_sent></extraParams></message>
        """)
    }

    @Test func occupantsAddedCarriesTheNewOnesAndNoBody() {
        let notification = OutgoingSystemNotification(
            id: Self.id, to: Self.bob, kind: .dialogUpdated, dialogID: "d1", dialogType: 2, name: "ops",
            occupantIDs: [1001, 1002, 1004], newOccupantIDs: [1004])
        let stanza = notification.stanza
        #expect(stanza[attribute: "type"] == "headline")
        #expect(stanza.child("body") == nil)
        let extra = stanza.child("extraParams", namespace: "jabber:client")
        #expect(extra?.children.first?.name == "moduleIdentifier")
        #expect(extra?.child("notification_type")?.text == "2")
        #expect(extra?.child("new_occupants_ids")?.text == "1004")
        #expect(extra?.child("xmpp_room_jid") == nil)
        #expect(extra?.child("date_sent") == nil)
    }

    @Test func privateDialogHasNoNameOrRoom() {
        let notification = OutgoingSystemNotification(
            id: Self.id, to: Self.bob, kind: .dialogCreated, dialogID: "d3", dialogType: 3, name: "",
            occupantIDs: [1001, 1002])
        #expect(notification.xml == """
        <message type="headline" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000002">\
        <extraParams xmlns="jabber:client"><moduleIdentifier>SystemNotifications</moduleIdentifier>\
        <notification_type>1</notification_type><dialog_id>d3</dialog_id><_id>d3</_id><type>3</type>\
        <occupants_ids>1001,1002</occupants_ids></extraParams></message>
        """)
    }

    /// What `dialogs create` and `dialogs add` send is what `listen` reads: the twins agree.
    @Test(arguments: [OutgoingSystemNotification.Kind.dialogCreated, .dialogUpdated])
    func theParserReadsBackWhatIsSent(kind: OutgoingSystemNotification.Kind) throws {
        let sent = OutgoingSystemNotification(
            id: Self.id, to: Self.bob, kind: kind, dialogID: "5d75393ba28f9a17e1cb0f9e", dialogType: 2, name: "ops & co",
            occupantIDs: [1001, 1002], roomJID: Self.room, newOccupantIDs: kind == .dialogUpdated ? [1002] : [], dateSent: 1_700_000_000)
        var stanza = sent.stanza
        stanza.attributes.append(.init("from", "1001-77@chat.quickblox.com/phone"))
        let read = try #require(IncomingSystemNotification(parsing: stanza))
        #expect(read.kind == (kind == .dialogCreated ? .created : .updated))
        #expect(read.dialogID == "5d75393ba28f9a17e1cb0f9e" && read.id == Self.id.rawValue)
        #expect(read.name == "ops & co" && read.dialogType == 2 && read.occupantIDs == [1001, 1002])
        #expect(read.senderUserID == 1001)
        #expect(read.fields["new_occupants_ids"] == (kind == .dialogUpdated ? "1002" : nil))
        #expect(OutgoingSystemNotification.moduleIdentifier == IncomingSystemNotification.moduleIdentifier)
    }

    @Test func aNameXMLCannotCarryIsRefusedWithoutQuotingIt() {
        let notification = OutgoingSystemNotification(
            id: Self.id, to: Self.bob, kind: .dialogCreated, dialogID: "d", dialogType: 2, name: "evil\u{1B}[2J",
            occupantIDs: [1])
        let problem = notification.validationProblem
        #expect(problem?.contains("U+001B") == true)
        #expect(problem?.contains("evil") == false)
    }
}
