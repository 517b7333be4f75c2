import Testing
import XMPPTransport

@Suite("Outgoing stanzas")
struct OutgoingStanzaTests {
    static let id = ObjectID("65600000deadbeef01000001")!
    static let bob = ChatJID.user(1002, appID: 77, domain: "chat.quickblox.com")

    @Test func chatMessageIsByteExact() {
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "hi <&>\"' there",
                                          dialogID: "dlg", dateSent: 1_700_000_000,
                                          attachments: [ChatAttachment(type: "image", id: "uid-1", name: "a&b.png")],
                                          customParameters: ["zeta": "1", "alpha": "x<y"])
        #expect(message.validationProblem == nil)
        #expect(message.xml == """
        <message type="chat" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000001"><body>hi &lt;&amp;&gt;"' there</body>\
        <markable xmlns="urn:xmpp:chat-markers:0"/><extraParams xmlns="jabber:client"><save_to_history>1</save_to_history>\
        <dialog_id>dlg</dialog_id><date_sent>1700000000</date_sent><attachment type="image" id="uid-1" name="a&amp;b.png"/>\
        <alpha>x&lt;y</alpha><zeta>1</zeta></extraParams></message>
        """)
    }

    @Test func groupMessageGoesToTheBareRoomWithoutOptionalParts() {
        let room = ChatJID.room(dialogID: "5f00aa", appID: 77, mucDomain: "muc.chat.quickblox.com").with(resource: "1001")
        let message = OutgoingChatMessage(id: Self.id, kind: .groupchat, to: room, body: "x", dialogID: "5f00aa",
                                          saveToHistory: false, markable: false)
        #expect(message.xml == """
        <message type="groupchat" to="77_5f00aa@muc.chat.quickblox.com" id="65600000deadbeef01000001"><body>x</body>\
        <extraParams xmlns="jabber:client"><save_to_history>0</save_to_history><dialog_id>5f00aa</dialog_id></extraParams></message>
        """)
    }

    /// Everything XML can carry comes back unchanged from a parser: CR as &#13; (else
    /// CRLF would become LF), C1 controls like the 8-bit CSI as they are, quotes in
    /// attributes escaped.
    @Test func bodyBytesSurviveIncludingCRAndC1Controls() {
        let body = "a\r\nb\tc \u{9B}31m red \u{85} 🧪 ]]>"
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: body, dialogID: "d", markable: false)
        let xml = message.xml
        #expect(xml.contains("<body>a&#13;\nb\tc \u{9B}31m red \u{85} 🧪 ]]&gt;</body>"))
        #expect(Array(xml.utf8).contains(0xC2) && Array(xml.utf8).contains(0x9B), "the C1 CSI stays as UTF-8 C2 9B")
        let attribute = StanzaElement("x", attributes: [.init("v", "q\"'<\t\n\r&")]).xml()
        #expect(attribute == "<x v=\"q&quot;&apos;&lt;&#9;&#10;&#13;&amp;\"/>")
    }

    @Test(arguments: ["\u{1B}[31mred", "nul\u{0}", "bell\u{7}", "\u{FFFF}"])
    func charactersXMLCannotCarryAreRefused(_ body: String) {
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: body, dialogID: "d")
        let problem = message.validationProblem
        #expect(problem?.contains("U+") == true)
        #expect(problem.map { !$0.contains("red") && !$0.contains("bell") } ?? false, "never quotes the body")
    }

    @Test(arguments: ["dialog_id", "save_to_history", "1abc", "a b", "xmlthing", "", "a<b"])
    func badCustomParameterNamesAreRefused(_ key: String) {
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "b", dialogID: "d",
                                          customParameters: [key: "v"])
        #expect(message.validationProblem != nil)
    }

    @Test func missingDialogIDIsRefused() {
        #expect(OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "b", dialogID: "").validationProblem != nil)
    }

    @Test func markerAndChatStateStanzas() {
        let peer = ChatJID(parsing: "1001-77@chat.quickblox.com/res")!
        let marker = ChatMarker(kind: .displayed, messageID: "m&1", peer: peer, dialogID: "dlg")
        #expect(marker.stanza(id: Self.id).xml() == """
        <message type="chat" to="1001-77@chat.quickblox.com" id="65600000deadbeef01000001">\
        <displayed xmlns="urn:xmpp:chat-markers:0" id="m&amp;1"/><extraParams xmlns="jabber:client"><dialog_id>dlg</dialog_id></extraParams></message>
        """)
    }

    /// What is sent (`xml(id:)`, written straight into a string) is the element's own
    /// serialisation, escapes and an empty dialog id included.
    @Test(arguments: [
        ChatMarker(kind: .displayed, messageID: "m&1", peer: ChatJID(parsing: "1001-77@chat.quickblox.com/res")!, dialogID: "dlg"),
        ChatMarker(kind: .received, messageID: "65600000deadbeef01000009", peer: ChatJID(parsing: "1002-77@c/r")!, dialogID: nil),
        ChatMarker(kind: .received, messageID: "\"<'>\t\n\r", peer: ChatJID(parsing: "1002-77@c")!, dialogID: "a<b&c>\r\n\u{1}"),
        ChatMarker(kind: .displayed, messageID: "", peer: ChatJID(parsing: "77_5f00aa@muc.c/1003")!, dialogID: ""),
    ])
    func markerTextIsTheElementsSerialisation(_ marker: ChatMarker) {
        #expect(marker.xml(id: Self.id) == marker.stanza(id: Self.id).xml())
    }

    @Test func receivedMarkerWithoutDialogGoesToTheBareJID() {
        let marker = ChatMarker(kind: .received, messageID: "65600000deadbeef01000009", peer: Self.bob.with(resource: "r"), dialogID: nil)
        #expect(marker.stanza(id: Self.id).xml() == """
        <message type="chat" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000001">\
        <received xmlns="urn:xmpp:chat-markers:0" id="65600000deadbeef01000009"/></message>
        """)
    }

    @Test func jids() {
        let full = ChatJID(parsing: "77_5f00aa@muc.chat.quickblox.com/1001")
        #expect(full?.roomDialogID == "5f00aa")
        #expect(full?.resource == "1001")
        #expect(full?.bare.description == "77_5f00aa@muc.chat.quickblox.com")
        #expect(ChatJID(parsing: "1002-77@chat.quickblox.com")?.userID == 1002)
        #expect(ChatJID(parsing: "1002-77@chat.quickblox.com")?.roomDialogID == nil)
        #expect(ChatJID(parsing: "@x") == nil)
        #expect(ChatJID(parsing: "a@b/") == nil)
        #expect(ChatJID(parsing: "localhost")?.node == nil)
    }
}
