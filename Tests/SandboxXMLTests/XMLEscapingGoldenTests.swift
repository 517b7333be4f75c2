import Testing
import SandboxXML
@testable import XMPPTransport
import TestSupport

/// The sandbox's XML escaping and expat parser against the table the client's
/// StanzaElement and libstrophe pass too; and each side's output read by the
/// other side's parser.
@Suite struct XMLEscapingGoldenTests {
    /// Body text and the `a` attribute of `<message><body>text</body><x a='attribute'/></message>`,
    /// as the sandbox's stream parser reads them.
    static func expatRead(text: String, attribute: String) -> (text: String, attribute: String?)? {
        let parser = XMLStreamParser(maxElementBytes: 1 << 20, maxDepth: 8)
        var stanza: XMPPElement?
        parser.handler = { event in
            if case .element(let element) = event { stanza = element }
            return true
        }
        let document = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"
            + "<message><body>\(text)</body><x a='\(attribute)'/></message>"
        guard Array(document.utf8).withUnsafeBytes({ parser.feed($0) }) == .consumedAll, let stanza else { return nil }
        return (stanza.child("body")?.text ?? "", stanza.child("x")?[attribute: "a"])
    }

    @Test(arguments: GoldenVectors.xmlText)
    func escapesTextAndAttributes(_ vector: GoldenVectors.XMLText) {
        #expect(GoldenVectors.sameScalars(XMLEscaping.text(vector.input), vector.text))
        #expect(GoldenVectors.sameScalars(XMLEscaping.attribute(vector.input), vector.attribute))
        let element = XMPPElement(name: "x", namespace: "jabber:client", attributes: [.init(name: "a", value: vector.input)],
                                  children: [.text(vector.input)])
        #expect(GoldenVectors.sameScalars(element.serialized(parentNamespace: "jabber:client"),
                                          "<x a='\(vector.attribute)'>\(vector.text)</x>"))
    }

    @Test(arguments: GoldenVectors.xmlText)
    func expatReadsTheGoldenFormsBack(_ vector: GoldenVectors.XMLText) throws {
        let read = try #require(Self.expatRead(text: vector.text, attribute: vector.attribute))
        #expect(GoldenVectors.sameScalars(read.text, vector.readBack))
        #expect(GoldenVectors.sameScalars(read.attribute, vector.readBack))
    }

    /// What the client writes, the sandbox reads back as the table says.
    @Test(arguments: GoldenVectors.xmlText)
    func expatReadsTheClientsEscaping(_ vector: GoldenVectors.XMLText) throws {
        var text = "", attribute = ""
        MarkupEscaper.xmlText.append(vector.input, to: &text)
        MarkupEscaper.xmlAttribute.append(vector.input, to: &attribute)
        let read = try #require(Self.expatRead(text: text, attribute: attribute))
        #expect(GoldenVectors.sameScalars(read.text, vector.readBack))
        #expect(GoldenVectors.sameScalars(read.attribute, vector.readBack))
    }

    /// What the sandbox writes, the client's libstrophe reads back as the table says.
    @Test(arguments: GoldenVectors.xmlText)
    func libstropheReadsTheSandboxsEscaping(_ vector: GoldenVectors.XMLText) throws {
        let body = try #require(StanzaElement(parsingWithStrophe: "<body>\(XMLEscaping.text(vector.input))</body>"))
        #expect(GoldenVectors.sameScalars(body.text, vector.readBack))
        let x = try #require(StanzaElement(parsingWithStrophe: "<x a='\(XMLEscaping.attribute(vector.input))'/>"))
        #expect(GoldenVectors.sameScalars(x[attribute: "a"], vector.readBack))
    }
}
