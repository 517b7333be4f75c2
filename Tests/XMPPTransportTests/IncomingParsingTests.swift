import Testing
@testable import XMPPTransport

/// ChatEvent.parse over element trees shaped like what libstrophe hands us
/// (text already unescaped by the XML parser; namespaces on the elements that declare them).
@Suite("Incoming stanza parsing")
struct IncomingParsingTests {
    typealias E = StanzaElement
    static let now = 1_800_000_000

    static func message(_ attributes: [(String, String)], _ children: [E]) -> E {
        E("message", namespace: "jabber:client", attributes: attributes.map { .init($0.0, $0.1) }, children: children)
    }
    static func extra(_ children: [E]) -> E { E("extraParams", namespace: "jabber:client", children: children) }

    @Test func oneToOneMessageWithEverything() throws {
        let stanza = Self.message([("type", "chat"), ("from", "1001-77@chat.quickblox.com/res1"), ("id", "65600000deadbeef01000001")], [
            E("body", text: "<b>&amp; \u{1B}[2J"),
            E("markable", namespace: "urn:xmpp:chat-markers:0"),
            Self.extra([
                E("save_to_history", text: "1"), E("dialog_id", text: "dlg1"), E("date_sent", text: "1700000000.25"),
                E("attachment", attributes: [.init("type", "image"), .init("id", "uid"), .init("name", "a.png")]),
                E("color", text: "red"), E("empty"), E("nested", children: [E("x", text: "1")]),
            ]),
            E("unknown", namespace: "urn:example", text: "ignored"),
        ])
        let event = ChatEvent.parse(stanza, receivedAt: Self.now)
        let expected = IncomingChatMessage(kind: .chat, id: "65600000deadbeef01000001",
                                           from: ChatJID(parsing: "1001-77@chat.quickblox.com/res1")!, senderUserID: 1001,
                                           dialogID: "dlg1", dateSent: 1_700_000_000, body: "<b>&amp; \u{1B}[2J",
                                           customParameters: ["color": "red", "empty": ""],
                                           attachments: [ChatAttachment(type: "image", id: "uid", name: "a.png")], markable: true)
        #expect(event == .message(expected))
    }

    @Test func groupMessageTakesSenderFromResourceAndDialogFromRoom() {
        let stanza = Self.message([("type", "groupchat"), ("from", "77_5f00aa@muc.chat.quickblox.com/1003")], [E("body", text: "hi")])
        guard case .message(let m)? = ChatEvent.parse(stanza, receivedAt: Self.now) else { Issue.record("not a message"); return }
        #expect(m.senderUserID == 1003)
        #expect(m.dialogID == "5f00aa")
        #expect(m.dateSent == Self.now, "no date_sent: the receive time")
        #expect(m.id == "" && !m.markable && m.customParameters.isEmpty)
    }

    @Test func extraParamsDialogWinsOverTheRoomJID() {
        let stanza = Self.message([("type", "groupchat"), ("from", "77_5f00aa@muc.x/1003")],
                                  [E("body", text: "hi"), Self.extra([E("dialog_id", text: "other"), E("date_sent", text: "junk")])])
        guard case .message(let m)? = ChatEvent.parse(stanza, receivedAt: Self.now) else { Issue.record("not a message"); return }
        #expect(m.dialogID == "other")
        #expect(m.dateSent == Self.now, "unparseable date_sent falls back to now")
    }

    @Test func markersStatesAndErrors() {
        let from = ChatJID(parsing: "1002-77@c/r")!
        #expect(ChatEvent.parse(Self.message([("type", "chat"), ("from", "1002-77@c/r")], [
            E("displayed", namespace: "urn:xmpp:chat-markers:0", attributes: [.init("id", "m1")]), Self.extra([E("dialog_id", text: "d")]),
        ]), receivedAt: Self.now) == .marker(ChatMarker(kind: .displayed, messageID: "m1", peer: from, dialogID: "d")))
        #expect(ChatEvent.parse(Self.message([("type", "chat"), ("from", "1002-77@c/r")], [
            E("composing", namespace: "http://jabber.org/protocol/chatstates"),
        ]), receivedAt: Self.now) == .chatState(.composing, from: from, dialogID: nil))
        #expect(ChatEvent.parse(Self.message([("type", "error"), ("from", "4242-77@c"), ("id", "abc")], [
            E("body", text: "bounced body"),
            E("error", attributes: [.init("type", "cancel")], children: [
                E("service-unavailable", namespace: "urn:ietf:params:xml:ns:xmpp-stanzas"),
                E("text", namespace: "urn:ietf:params:xml:ns:xmpp-stanzas", text: "User offline"),
            ]),
        ]), receivedAt: Self.now) == .messageError(ChatMessageError(id: "abc", from: ChatJID(parsing: "4242-77@c"),
                                                                    condition: "service-unavailable", type: "cancel", text: "User offline")))
    }

    @Test(arguments: [
        ("no type, body", [("from", "1-2@c")], [StanzaElement("body", text: "x")]),
        ("chat without from", [("type", "chat")], [StanzaElement("body", text: "x")]),
        ("room subject", [("type", "groupchat"), ("from", "77_a@muc.c")], [StanzaElement("subject", text: "topic")]),
        ("carbon received (not a marker)", [("type", "chat"), ("from", "1-2@c")],
         [StanzaElement("received", namespace: "urn:xmpp:carbons:2", children: [StanzaElement("forwarded", namespace: "urn:xmpp:forward:0")])]),
        ("marker without id", [("type", "chat"), ("from", "1-2@c")], [StanzaElement("received", namespace: "urn:xmpp:chat-markers:0")]),
        ("headline", [("type", "headline"), ("from", "c")], [StanzaElement("body", text: "x")]),
    ] as [(String, [(String, String)], [StanzaElement])])
    func ignoredStanzas(_ name: String, _ attributes: [(String, String)], _ children: [StanzaElement]) {
        #expect(ChatEvent.parse(Self.message(attributes, children), receivedAt: Self.now) == nil, "\(name)")
    }

    @Test func nonMessageIsIgnored() {
        #expect(ChatEvent.parse(E("presence", attributes: [.init("from", "1-2@c")]), receivedAt: Self.now) == nil)
    }

    @Test func roomPresences() {
        let mucUser = "http://jabber.org/protocol/muc#user"
        let selfPresence = E("presence", attributes: [.init("from", "77_a@muc.c/1001")], children: [
            E("x", namespace: mucUser, children: [E("item", attributes: [.init("role", "participant")]), E("status", attributes: [.init("code", "110")])]),
        ])
        #expect(RoomPresence(selfPresence)?.isSelf == true)
        let other = E("presence", attributes: [.init("from", "77_a@muc.c/1002")], children: [E("x", namespace: mucUser)])
        #expect(RoomPresence(other)?.isSelf == false)
        let error = E("presence", attributes: [.init("from", "77_a@muc.c/1001"), .init("type", "error")], children: [
            E("error", attributes: [.init("type", "cancel")], children: [E("not-allowed", namespace: "urn:ietf:params:xml:ns:xmpp-stanzas")]),
        ])
        #expect(RoomPresence(error)?.errorCondition == "not-allowed")
        #expect(RoomPresence(E("presence", attributes: [.init("from", "1-2@c/r")])) == nil, "not a MUC presence")
        #expect(RoomPresence.joinStanza(room: ChatJID(parsing: "77_a@muc.c")!, nick: "1001").xml() ==
                "<presence to=\"77_a@muc.c/1001\"><x xmlns=\"http://jabber.org/protocol/muc\"><history maxstanzas=\"0\"/></x></presence>")
        #expect(RoomPresence.leaveStanza(room: ChatJID(parsing: "77_a@muc.c/old")!, nick: "1001").xml() ==
                "<presence to=\"77_a@muc.c/1001\" type=\"unavailable\"/>")
    }
}
