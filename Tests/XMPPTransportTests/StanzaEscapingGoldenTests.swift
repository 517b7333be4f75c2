import Testing
@testable import XMPPTransport
import TestSupport

/// The client's XML escaping (`MarkupEscaper`) and libstrophe's parser against the
/// table the sandbox's escaper and expat parser pass too.
@Suite struct StanzaEscapingGoldenTests {
    @Test(arguments: GoldenVectors.xmlText)
    func escapesTextAndAttributes(_ vector: GoldenVectors.XMLText) {
        var text = "", attribute = ""
        MarkupEscaper.xmlText.append(vector.input, to: &text)
        MarkupEscaper.xmlAttribute.append(vector.input, to: &attribute)
        #expect(GoldenVectors.sameScalars(text, vector.text))
        #expect(GoldenVectors.sameScalars(attribute, vector.attribute))
        #expect(GoldenVectors.sameScalars(MarkupEscaper.xmlAttribute.escaping(vector.input), vector.attribute))
    }

    @Test(arguments: GoldenVectors.xmlText)
    func serializedStanzaCarriesTheEscapedForms(_ vector: GoldenVectors.XMLText) {
        let element = StanzaElement("x", attributes: [.init("a", vector.input)], children: [StanzaElement("body", text: vector.input)])
        let body = vector.text.isEmpty ? "<body/>" : "<body>\(vector.text)</body>"
        #expect(GoldenVectors.sameScalars(element.xml(), "<x a=\"\(vector.attribute)\">\(body)</x>"))
    }

    /// libstrophe reads the golden forms back as the table says.
    @Test(arguments: GoldenVectors.xmlText)
    func libstropheReadsTheGoldenFormsBack(_ vector: GoldenVectors.XMLText) throws {
        let body = try #require(StanzaElement(parsingWithStrophe: "<body>\(vector.text)</body>"))
        #expect(GoldenVectors.sameScalars(body.text, vector.readBack))
        for quote in ["\"", "'"] {
            let x = try #require(StanzaElement(parsingWithStrophe: "<x a=\(quote)\(vector.attribute)\(quote)/>"))
            #expect(GoldenVectors.sameScalars(x[attribute: "a"], vector.readBack))
        }
    }
}
