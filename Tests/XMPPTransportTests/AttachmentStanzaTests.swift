import Testing
import TestSupport
@testable import XMPPTransport

/// Attachments over chat (docs/protocol.md §7, §8): the stanzas QuickBlox's SDKs send,
/// as XML text through libstrophe, and what chatctl writes, byte for byte and read back.
@Suite("Attachment stanzas")
struct AttachmentStanzaTests {
    static let now = 1_800_000_000
    static let id = ObjectID("65600000deadbeef01000001")!
    static let bob = ChatJID.user(1002, appID: 77, domain: "chat.quickblox.com")

    private func message(_ xml: String) throws -> IncomingChatMessage {
        let element = try #require(StanzaElement(parsingWithStrophe: xml), "libstrophe could not parse \(xml)")
        guard case .message(let m)? = ChatEvent.parse(element, receivedAt: Self.now) else {
            throw TestSupportError("not a message: \(xml)")
        }
        return m
    }

    /// The JavaScript SDK's `filledExtraParams` (browser): one `<attachment>` per entry of
    /// `extension.attachments`, its keys as attributes, directly inside extraParams; the
    /// q-municate web app's entry also carries `width`, `height` and `duration`.
    @Test func theJavaScriptSDKsShape() throws {
        let m = try message("""
            <message xmlns="jabber:client" type="chat" from="1001-77@chat.quickblox.com/web" to="1002-77@chat.quickblox.com" \
            id="65600000deadbeef01000002"><body>[attachment]</body><markable xmlns="urn:xmpp:chat-markers:0"/>\
            <extraParams xmlns="jabber:client"><save_to_history>1</save_to_history><dialog_id>5f00000000000000000000aa</dialog_id>\
            <date_sent>1700000000</date_sent><attachment type="image" id="8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b00" name="cat.jpg" \
            size="1258291" content-type="image/jpeg" width="1000" height="750"/></extraParams></message>
            """)
        #expect(m.body == "[attachment]")
        #expect(m.attachments.count == 1)
        let a = try #require(m.attachments.first)
        #expect(a.type == "image" && a.id == "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b00" && a.name == "cat.jpg")
        #expect(a.size == 1_258_291 && a.contentType == "image/jpeg" && a.url == nil)
        #expect(Set(a.attributes.map(\.name)) == ["type", "id", "name", "size", "content-type", "width", "height"], "every attribute")
        #expect(a["width"] == "1000" && a["height"] == "750")
        #expect(m.customParameters.isEmpty, "an attachment is not a custom parameter")
        #expect(m.dialogID == "5f00000000000000000000aa" && m.markable)
    }

    /// Several attachments (in order), text beside them, an iOS-style `url`, `content_type` spelt as in REST.
    @Test func severalAttachmentsKeepTheirOrder() throws {
        let m = try message("""
            <message type="groupchat" from="77_5f00aa@muc.chat.quickblox.com/1003" id="65600000deadbeef01000003">\
            <body>the photos</body><extraParams xmlns="jabber:client"><dialog_id>5f00aa</dialog_id>\
            <attachment type="image" id="u1" name="one.png" url="https://example.com/u1"/><note>x</note>\
            <attachment type="video" id="u2" content_type="video/mp4"/></extraParams></message>
            """)
        #expect(m.body == "the photos")
        #expect(m.attachments.map(\.id) == ["u1", "u2"])
        #expect(m.attachments.map(\.url) == ["https://example.com/u1", nil])
        #expect(m.attachments.last?.contentType == "video/mp4")
        #expect(m.customParameters == ["note": "x"])
    }

    /// The Node.js SDK before its fix of December 2016
    /// wrote the attachment beside extraParams, directly inside `<message>`.
    @Test func theOldNodeSDKsAttachmentBesideExtraParams() throws {
        let m = try message("""
            <message type="chat" from="1001-77@chat.quickblox.com/node" id="65600000deadbeef01000004"><body>Attachment</body>\
            <extraParams xmlns="jabber:client"><save_to_history>1</save_to_history><dialog_id>d1</dialog_id></extraParams>\
            <attachment type="file" id="u9" name="notes.txt" size="12"/></message>
            """)
        #expect(m.attachments == [ChatAttachment(type: "file", id: "u9", name: "notes.txt", size: 12)])
    }

    @Test func insideExtraParamsWinsOverBesideIt() throws {
        let m = try message("""
            <message type="chat" from="1001-77@c/r"><body>b</body><attachment id="outside"/>\
            <extraParams xmlns="jabber:client"><attachment id="inside"/></extraParams></message>
            """)
        #expect(m.attachments.map(\.id) == ["inside"])
    }

    /// Sizes as the SDKs write them: integers, doubles (`1258291.0`), padded; anything else is unknown.
    @Test(arguments: [("1258291", 1_258_291), (" 42 ", 42), ("1258291.0", 1_258_291), ("0", 0)] as [(String, Int)])
    func sizesInEveryShape(text: String, bytes: Int) {
        #expect(ChatAttachment(attributes: [.init("size", text)]).size == bytes)
    }

    @Test(arguments: ["", "12.5", "-3", "lots", "1e400", "0x10"])
    func sizesThatAreNoByteCount(text: String) {
        #expect(ChatAttachment(attributes: [.init("size", text)]).size == nil)
    }

    /// A sender may leave the body out when there is only an attachment: still a message.
    @Test func anAttachmentWithoutABodyIsAMessage() throws {
        let m = try message("""
            <message type="chat" from="1001-77@c/r" id="65600000deadbeef01000005"><extraParams xmlns="jabber:client">\
            <attachment type="audio" id="u3"/></extraParams></message>
            """)
        #expect(m.body == "" && m.attachments.map(\.type) == ["audio"])
        let bare = try #require(StanzaElement(parsingWithStrophe: "<message type='chat' from='1001-77@c/r'><extraParams xmlns='jabber:client'><x>1</x></extraParams></message>"))
        #expect(ChatEvent.parse(bare, receivedAt: Self.now) == nil, "no body and no attachment: nothing to show")
    }

    @Test func aCarbonKeepsItsAttachments() throws {
        let xml = """
            <message type="chat" to="1001-77@c/desk" from="1001-77@c"><sent xmlns="urn:xmpp:carbons:2"><forwarded xmlns="urn:xmpp:forward:0">\
            <message xmlns="jabber:client" type="chat" to="1002-77@c" from="1001-77@c/phone" id="65600000deadbeef01000006">\
            <body>[attachment]</body><extraParams><dialog_id>d1</dialog_id><attachment type="image" id="u4" name="p.png"/>\
            </extraParams></message></forwarded></sent></message>
            """
        let element = try #require(StanzaElement(parsingWithStrophe: xml))
        guard case .carbon(let copy)? = ChatEvent.parse(element, receivedAt: Self.now, ownJID: ChatJID(parsing: "1001-77@c/desk")) else {
            Issue.record("not a carbon"); return
        }
        #expect(copy.message.attachments.map(\.name) == ["p.png"])
    }

    // MARK: what chatctl writes

    @Test func attachmentsGoDirectlyInsideExtraParamsInTheProtocolsOrder() {
        let message = OutgoingChatMessage(
            id: Self.id, kind: .chat, to: Self.bob, body: "[attachment]", dialogID: "dlg", dateSent: 1_700_000_000,
            attachments: [
                ChatAttachment(type: "image", id: "uid-1", name: "cat \"1\" <&>.jpg", size: 1_258_291, contentType: "image/jpeg"),
                ChatAttachment(type: "file", id: "uid-2", name: "tab\there\nnew", url: "https://x/y?a=1&b=2", extra: ["width": "3"]),
            ],
            customParameters: ["note": "n"])
        #expect(message.validationProblem == nil)
        #expect(message.xml == """
        <message type="chat" to="1002-77@chat.quickblox.com" id="65600000deadbeef01000001"><body>[attachment]</body>\
        <markable xmlns="urn:xmpp:chat-markers:0"/><extraParams xmlns="jabber:client"><save_to_history>1</save_to_history>\
        <dialog_id>dlg</dialog_id><date_sent>1700000000</date_sent>\
        <attachment type="image" id="uid-1" name="cat &quot;1&quot; &lt;&amp;&gt;.jpg" size="1258291" content-type="image/jpeg"/>\
        <attachment type="file" id="uid-2" name="tab&#9;here&#10;new" url="https://x/y?a=1&amp;b=2" width="3"/>\
        <note>n</note></extraParams></message>
        """)
    }

    /// What chatctl writes, read by libstrophe and chatctl's own reader, comes back whole
    /// (the shape the SDKs' `parseExtraParams` reads: attributes of extraParams' `attachment` children).
    @Test func whatChatctlWritesReadsBack() throws {
        let sent = [ChatAttachment(type: "image", id: "uid-1", name: "a'b\"c\r\n.png", size: 7, contentType: "image/png"),
                    ChatAttachment(type: "audio", id: "uid-2")]
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "look", dialogID: "dlg", attachments: sent)
        var element = try #require(StanzaElement(parsingWithStrophe: message.xml))
        let extra = try #require(element.child("extraParams"))
        #expect(extra.children.filter { $0.name == "attachment" }.map { $0[attribute: "id"] } == ["uid-1", "uid-2"])
        element.attributes.append(.init("from", "1001-77@chat.quickblox.com/r"))
        guard case .message(let m)? = ChatEvent.parse(element, receivedAt: Self.now) else { Issue.record("not a message"); return }
        #expect(m.attachments == sent)
        #expect(m.attachments.first?.name == "a'b\"c\r\n.png")
    }

    @Test(arguments: [
        ChatAttachment(attributes: [.init("1bad", "x")]),
        ChatAttachment(attributes: [.init("name", "esc \u{1B}[2J")]),
        ChatAttachment(attributes: [.init("id", "a"), .init("id", "b")]),
    ])
    func attachmentsXMLCannotCarryAreRefused(_ attachment: ChatAttachment) {
        let message = OutgoingChatMessage(id: Self.id, kind: .chat, to: Self.bob, body: "b", dialogID: "d", attachments: [attachment])
        let problem = message.validationProblem
        #expect(problem?.contains("attachment") == true)
        #expect(problem?.contains("[2J") != true, "never quotes the value")
    }
}
