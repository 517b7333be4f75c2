import Testing
@testable import XMPPTransport

/// Real XML text through libstrophe's parser and the same copy incoming stanzas get
/// (`StanzaElement(stropheStanza:)`), then `ChatEvent.parse`. No sockets.
@Suite("Incoming XML text")
struct IncomingXMLTextTests {
    static let now = 1_800_000_000

    @Test func escapesNamespacesAndUnknownExtras() throws {
        let xml = """
        <message xmlns="jabber:client" type="chat" from="1001-77@chat.quickblox.com/r" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000009">\
        <body>&lt;script&gt; &amp;amp; &quot;q&quot; &#x1F9EA; line1&#10;line2 \u{9B}1m</body>\
        <markable xmlns="urn:xmpp:chat-markers:0"/>\
        <extraParams xmlns="jabber:client"><dialog_id>dlg&amp;1</dialog_id><date_sent>1700000001</date_sent>\
        <attachment type="file" id="u&amp;id" name="a &quot;b&quot;.txt" size="12"/><mood>ok &lt;3</mood></extraParams>\
        <thread>t1</thread><x xmlns="urn:example:unknown"><deep>ignored</deep></x></message>
        """
        let element = try #require(StanzaElement(parsingWithStrophe: xml))
        guard case .message(let m)? = ChatEvent.parse(element, receivedAt: Self.now) else {
            Issue.record("not a message: \(element)"); return
        }
        #expect(m.body == "<script> &amp; \"q\" 🧪 line1\nline2 \u{9B}1m")
        #expect(m.dialogID == "dlg&1")
        #expect(m.dateSent == 1_700_000_001)
        #expect(m.markable)
        #expect(m.attachments == [ChatAttachment(type: "file", id: "u&id", name: "a \"b\".txt", size: 12)])
        #expect(m.customParameters == ["mood": "ok <3"], "unknown top-level extras are ignored")
        #expect(m.senderUserID == 1001 && m.id == "65600000deadbeef01000009")
    }

    /// A marker as the sandbox forwards it, and one sent into a room (the nickname names the sender).
    @Test func forwardedAndRoomMarkers() throws {
        let forwarded = try #require(StanzaElement(parsingWithStrophe: """
            <message type='chat' from='1002-77@localhost/sandbox-1b' to='1001-77@localhost' id='6b0db887c4ca891d2141e1cf'>\
            <displayed xmlns='urn:xmpp:chat-markers:0' id='6b0db887c4ca891d2141e1cb'/>\
            <extraParams xmlns='jabber:client'><dialog_id>6b0db884c4ca891d2141e1c9</dialog_id></extraParams></message>
            """))
        #expect(ChatEvent.parse(forwarded, receivedAt: Self.now) == .marker(ChatMarker(
            kind: .displayed, messageID: "6b0db887c4ca891d2141e1cb", peer: ChatJID(parsing: "1002-77@localhost/sandbox-1b")!,
            dialogID: "6b0db884c4ca891d2141e1c9")))
        let inRoom = try #require(StanzaElement(parsingWithStrophe:
            "<message type='groupchat' from='77_5f00aa@muc.c/1003'><received xmlns='urn:xmpp:chat-markers:0' id='m1'/></message>"))
        #expect(ChatEvent.parse(inRoom, receivedAt: Self.now)
                == .marker(ChatMarker(kind: .received, messageID: "m1", peer: ChatJID(parsing: "77_5f00aa@muc.c/1003")!, dialogID: "5f00aa")))
    }

    @Test func markerAndMissingFields() throws {
        let marker = try #require(StanzaElement(parsingWithStrophe:
            "<message xmlns='jabber:client' type='chat' from='1002-77@c/r'><received xmlns='urn:xmpp:chat-markers:0' id='m9'/></message>"))
        #expect(ChatEvent.parse(marker, receivedAt: Self.now)
                == .marker(ChatMarker(kind: .received, messageID: "m9", peer: ChatJID(parsing: "1002-77@c/r")!, dialogID: nil)))
        let bare = try #require(StanzaElement(parsingWithStrophe: "<message type='chat' from='1002-77@c'><body/></message>"))
        guard case .message(let m)? = ChatEvent.parse(bare, receivedAt: Self.now) else {
            Issue.record("an empty body is still a message"); return
        }
        #expect(m.body == "" && m.id == "" && m.dialogID == nil && m.dateSent == Self.now)
        #expect(StanzaElement(parsingWithStrophe: "<message><body>unclosed</message>") == nil)
    }

    /// What we serialize, libstrophe parses back to the same body (CR included).
    @Test func outgoingRoundTripsThroughLibstrophe() throws {
        let body = "a\r\nb <&> \"' \u{9B}31m 🧪"
        let message = OutgoingChatMessage(id: ObjectID("65600000deadbeef01000001")!, kind: .chat,
                                          to: .user(1002, appID: 77, domain: "c"), body: body, dialogID: "d",
                                          customParameters: ["k": "v&<"])
        let element = try #require(StanzaElement(parsingWithStrophe: message.xml))
        #expect(element.child("body")?.text == body)
        #expect(element.child("extraParams")?.child("k")?.text == "v&<")
    }
}
