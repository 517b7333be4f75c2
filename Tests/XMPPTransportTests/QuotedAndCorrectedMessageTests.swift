import Testing
@testable import XMPPTransport

/// Replies and forwards as the UI Kits send them over chat, and the corrections chatctl
/// sends after an edit or a delete (docs/protocol.md §6).
@Suite("Replies, forwards and corrections over chat")
struct QuotedAndCorrectedMessageTests {
    static let now = 1_800_000_000
    static let id = ObjectID("65600000deadbeef01000001")!
    static let bob = ChatJID.user(1002, appID: 77, domain: "chat.quickblox.com")

    /// A reply as a UI Kit app sends it: the three custom parameters in extraParams, the
    /// originals' JSON as escaped text.
    @Test func aUIKitReplyKeepsItsParametersAsText() throws {
        let xml = """
        <message xmlns="jabber:client" type="chat" from="1002-77@chat.quickblox.com/ios" to="1001-77@chat.quickblox.com" id="6555bb10924a346ee0000007">\
        <body>yes, all green</body><markable xmlns="urn:xmpp:chat-markers:0"/>\
        <extraParams xmlns="jabber:client"><save_to_history>1</save_to_history><dialog_id>6555ba1b32eaaf007c4f552d</dialog_id>\
        <qb_message_action>reply</qb_message_action><origin_sender_name>Alice &amp; co</origin_sender_name>\
        <qb_original_messages>[{&quot;_id&quot;:&quot;6555bab4924a346ee0000005&quot;,"message":"did the deploy finish? &lt;3","sender_id":1001,"date_sent":1700117172000}]</qb_original_messages>\
        </extraParams></message>
        """
        let element = try #require(StanzaElement(parsingWithStrophe: xml))
        guard case .message(let message)? = ChatEvent.parse(element, receivedAt: Self.now) else { Issue.record("not a message"); return }
        #expect(message.body == "yes, all green")
        #expect(message.customParameters == [
            "qb_message_action": "reply", "origin_sender_name": "Alice & co",
            "qb_original_messages": #"[{"_id":"6555bab4924a346ee0000005","message":"did the deploy finish? <3","sender_id":1001,"date_sent":1700117172000}]"#,
        ])
    }

    @Test func aReplyGoesWithItsParametersEscaped() {
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "ok", dialogID: "dlg", dateSent: 1_700_000_000,
                                          customParameters: ["qb_message_action": "reply", "origin_sender_name": "Bob",
                                                             "qb_original_messages": #"[{"_id":"a1","message":"<hi>"}]"#])
        #expect(message.validationProblem == nil)
        #expect(message.xml.contains(#"<origin_sender_name>Bob</origin_sender_name><qb_message_action>reply</qb_message_action>"#))
        #expect(message.xml.contains(#"<qb_original_messages>[{"_id":"a1","message":"&lt;hi&gt;"}]</qb_original_messages>"#))
    }

    @Test func correctionsAreByteExactAndNotStored() {
        #expect(ChatCorrection.replace(id: "6555bab4924a346ee0000005", text: "fixed <typo>")
            .stanza(id: Self.id, kind: .chat, to: Self.bob.with(resource: "r"), dialogID: "dlg").xml() == """
            <message type="chat" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000001"><body>fixed &lt;typo&gt;</body>\
            <replace xmlns="urn:xmpp:message-correct:0" id="6555bab4924a346ee0000005"/>\
            <extraParams xmlns="jabber:client"><save_to_history>0</save_to_history><dialog_id>dlg</dialog_id></extraParams></message>
            """)
        #expect(ChatCorrection.retract(id: "6555bab4924a346ee0000005")
            .stanza(id: Self.id, kind: .groupchat, to: ChatJID.room(dialogID: "5f00aa", appID: 77, mucDomain: "muc.x"), dialogID: "5f00aa").xml() == """
            <message type="groupchat" to="77_5f00aa@muc.x" id="65600000deadbeef01000001">\
            <retract xmlns="urn:xmpp:message-retract:1" id="6555bab4924a346ee0000005"/>\
            <extraParams xmlns="jabber:client"><save_to_history>0</save_to_history><dialog_id>5f00aa</dialog_id></extraParams></message>
            """)
    }

    @Test func correctionsAreReadInEveryForm() throws {
        let from = ChatJID(parsing: "1002-77@chat.quickblox.com/r")!
        let stanzas = [
            (#"<body>fixed</body><replace xmlns="urn:xmpp:message-correct:0" id="m1"/>"#, ChatCorrection.replace(id: "m1", text: "fixed")),
            (#"<retract xmlns="urn:xmpp:message-retract:1" id="m1"/>"#, ChatCorrection.retract(id: "m1")),
            (#"<apply-to xmlns="urn:xmpp:fasten:0" id="m1"><retract xmlns="urn:xmpp:message-retract:0"/></apply-to><body>fallback</body>"#,
             ChatCorrection.retract(id: "m1")),
        ]
        for (inner, expected) in stanzas {
            let element = try #require(StanzaElement(parsingWithStrophe: """
                <message xmlns="jabber:client" type="chat" from="1002-77@chat.quickblox.com/r" id="x">\(inner)\
                <extraParams xmlns="jabber:client"><dialog_id>dlg</dialog_id></extraParams></message>
                """))
            #expect(ChatEvent.parse(element, receivedAt: Self.now) == .correction(expected, from: from, dialogID: "dlg"))
        }
        // A replace without a body corrects nothing: an empty message, ignored.
        let bodiless = try #require(StanzaElement(parsingWithStrophe: """
            <message xmlns="jabber:client" type="chat" from="1002-77@chat.quickblox.com/r"><replace xmlns="urn:xmpp:message-correct:0" id="m1"/></message>
            """))
        #expect(ChatEvent.parse(bodiless, receivedAt: Self.now) == nil)
    }
}
