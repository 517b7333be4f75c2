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

    @Test func aNameXMLCannotCarryIsRefusedWithoutQuotingIt() {
        let notification = OutgoingSystemNotification(
            id: Self.id, to: Self.bob, kind: .dialogCreated, dialogID: "d", dialogType: 2, name: "evil\u{1B}[2J",
            occupantIDs: [1])
        let problem = notification.validationProblem
        #expect(problem?.contains("U+001B") == true)
        #expect(problem?.contains("evil") == false)
    }
}
