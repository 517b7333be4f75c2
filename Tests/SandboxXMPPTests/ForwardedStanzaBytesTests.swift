import Testing
import SandboxXML
@testable import SandboxXMPP

/// `ForwardedStanza` writes the router's copy of a stanza straight from the parsed one; its
/// bytes must be exactly those of the copy built as a tree (`XMPPStanzaRouter.forwarded`).
@Suite("Forwarded stanzas written without a copy of their tree")
struct ForwardedStanzaBytesTests {
    static func parse(_ xml: String) -> XMPPElement? {
        let parser = XMLStreamParser(maxElementBytes: 1 << 20, maxDepth: 16)
        var stanza: XMPPElement?
        parser.handler = { event in
            if case .element(let element) = event { stanza = element }
            return true
        }
        let document = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>" + xml
        guard Array(document.utf8).withUnsafeBytes({ parser.feed($0) }) == .consumedAll else { return nil }
        return stanza
    }

    static let stanzas = [
        // chatctl's message
        "<message type='chat' to='2-1@localhost' id='5f0000000000000000000001'><body>hi &amp; &lt;bye&gt;</body><markable xmlns='urn:xmpp:chat-markers:0'/><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>d1</dialog_id><date_sent>12</date_sent></extraParams></message>",
        // a plain client's: no extraParams, its own stanza-id (dropped), an origin-id, text between children
        "<message to='2-1@localhost/r' from='x@y' id='abc'>\n <body>plain</body> <stanza-id xmlns='urn:xmpp:sid:0' id='forged' by='me'/><origin-id xmlns='urn:xmpp:sid:0' id='own'/></message>",
        // extraParams in another namespace, attributes on it, custom keys, no dialog_id
        "<message type='chat' to='2-1@localhost'><body>x</body><extraParams xmlns='urn:other' k='v'><custom>1</custom><date_sent a='b'>9</date_sent></extraParams><extraParams xmlns='jabber:client'/></message>",
        // a marker and a chat state, nothing else
        "<message type='chat' to='2-1@localhost' id='m1'><received xmlns='urn:xmpp:chat-markers:0' id='own-id'/><active xmlns='http://jabber.org/protocol/chatstates'/></message>",
        // empty
        "<message to='2-1@localhost' type='headline'/>",
        // a message in another default namespace, with an attribute that needs escaping
        "<message xmlns='jabber:server' to='2-1@localhost' xml:lang='en' note='a&apos;b&quot;c&#10;'><body>line&#13;\nnext \u{E9}</body></message>",
    ]

    struct Variant: CustomTestStringConvertible, Sendable {
        let name: String
        let id: String?
        let dialogId: String?
        let dateSent: Int?
        let originId: String?
        let stanzaId: (id: String, by: String)?
        let markerId: (old: String, new: String)?
        var testDescription: String { name }
    }

    static let variants = [
        Variant(name: "marker or typing", id: "m1", dialogId: nil, dateSent: nil, originId: nil, stanzaId: nil, markerId: nil),
        Variant(name: "no id", id: nil, dialogId: nil, dateSent: nil, originId: nil, stanzaId: nil, markerId: nil),
        Variant(name: "stored message", id: "5f0000000000000000000009", dialogId: "dialog<&>", dateSent: 1700000000,
                originId: "own", stanzaId: (id: "5f0000000000000000000009", by: "2-1@localhost"), markerId: nil),
        Variant(name: "dialog only", id: "x", dialogId: "d2", dateSent: nil, originId: "x", stanzaId: nil, markerId: nil),
        Variant(name: "date only", id: "x", dialogId: nil, dateSent: 5, originId: nil, stanzaId: nil, markerId: nil),
        Variant(name: "marker's id replaced", id: "m1", dialogId: nil, dateSent: nil, originId: nil, stanzaId: nil,
                markerId: (old: "own-id", new: "5f0000000000000000000002")),
    ]

    @Test(arguments: stanzas, variants)
    func bytesAreTheTreesBytes(xml: String, variant: Variant) throws {
        let stanza = try #require(Self.parse(xml))
        let forward = ForwardedStanza(stanza, from: "1-1@localhost/a'b", to: "2-1@localhost/r", id: variant.id,
                                      dialogId: variant.dialogId, dateSent: variant.dateSent, originId: variant.originId,
                                      stanzaId: variant.stanzaId, markerId: variant.markerId)
        for namespace in ["jabber:client", "urn:xmpp:forward:0"] {
            #expect(forward.serialized(parentNamespace: namespace) == forward.element.serialized(parentNamespace: namespace))
        }
    }

    @Test func aStoredMessageIsForwardedWithItsDialogDateAndIds() throws {
        let stanza = try #require(Self.parse(Self.stanzas[0]))
        let forward = ForwardedStanza(stanza, from: "1-1@localhost/a", to: "2-1@localhost", id: "5f0000000000000000000009",
                                      dialogId: "d9", dateSent: 77, originId: "5f0000000000000000000001",
                                      stanzaId: (id: "5f0000000000000000000009", by: "2-1@localhost"))
        #expect(forward.serialized(parentNamespace: "jabber:client") == """
            <message from='1-1@localhost/a' to='2-1@localhost' type='chat' id='5f0000000000000000000009'><body>hi &amp; &lt;bye&gt;</body>\
            <markable xmlns='urn:xmpp:chat-markers:0'/><extraParams><save_to_history>1</save_to_history><dialog_id>d9</dialog_id>\
            <date_sent>77</date_sent></extraParams><origin-id xmlns='urn:xmpp:sid:0' id='5f0000000000000000000001'/>\
            <stanza-id xmlns='urn:xmpp:sid:0' id='5f0000000000000000000009' by='2-1@localhost'/></message>
            """)
    }

    @Test func aMarkersIdBecomesTheOneItsSenderGave() throws {
        let stanza = try #require(Self.parse(Self.stanzas[3]))
        var forward = ForwardedStanza(stanza, from: "1-1@localhost/a", to: "2-1@localhost", id: "m1", dialogId: nil, dateSent: nil)
        forward.markerId = (old: "own-id", new: "given")
        #expect(forward.serialized(parentNamespace: "jabber:client") == """
            <message from='1-1@localhost/a' to='2-1@localhost' type='chat' id='m1'><received xmlns='urn:xmpp:chat-markers:0' id='given'/>\
            <active xmlns='http://jabber.org/protocol/chatstates'/></message>
            """)
    }
}
