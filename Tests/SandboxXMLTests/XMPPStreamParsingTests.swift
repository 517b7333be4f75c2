import Foundation
import Testing
import SandboxXML

/// `XMLStreamParser` (expat) and `XMPPElement`, without sockets.
@Suite("XMPP stream parsing")
struct XMPPStreamParsingTests {
    private let open = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='localhost' version='1.0' xml:lang='en'>"

    private func parse(_ chunks: [String], maxElementBytes: Int = 65536, maxDepth: Int = 16,
                       stopAfter: ((XMLStreamEvent) -> Bool)? = nil) -> (events: [XMLStreamEvent], results: [XMLFeedResult]) {
        let parser = XMLStreamParser(maxElementBytes: maxElementBytes, maxDepth: maxDepth)
        var events: [XMLStreamEvent] = []
        parser.handler = { event in
            events.append(event)
            return !(stopAfter?(event) ?? false)
        }
        var results: [XMLFeedResult] = []
        for chunk in chunks {
            results.append(Array(chunk.utf8).withUnsafeBytes { parser.feed($0) })
        }
        return (events, results)
    }

    @Test func headerAndStanzasSplitAcrossChunks() throws {
        let (events, results) = parse(["<?xml version='1.0'?>" + open.prefix(20), String(open.dropFirst(20)) + "<message to='a@b' type='chat'><bo", "dy>x &amp; y</body><x xmlns='urn:x' xml:lang='fr'/></message>  <presence/>"])
        #expect(results == [.consumedAll, .consumedAll, .consumedAll])
        guard case .streamOpened(let header)? = events.first else { Issue.record("no header"); return }
        #expect(header.isStreamTag && header.defaultNamespace == "jabber:client" && header.attributes["to"] == "localhost")
        #expect(header.attributes["xml:lang"] == "en")
        guard events.count == 3, case .element(let message) = events[1], case .element(let presence) = events[2] else {
            Issue.record("events: \(events)"); return
        }
        #expect(message.name == "message" && message.namespace == "jabber:client" && message[attribute: "to"] == "a@b")
        #expect(message.child("body")?.text == "x & y")
        #expect(message.child("x", namespace: "urn:x")?[attribute: "xml:lang"] == "fr")
        #expect(message.serialized(parentNamespace: "jabber:client") == "<message to='a@b' type='chat'><body>x &amp; y</body><x xmlns='urn:x' xml:lang='fr'/></message>")
        #expect(presence.name == "presence")
    }

    @Test func suspendingReportsWhereTheNextStreamBegins() {
        let stanza = "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>AGEAYg==</auth>"
        let rest = "<stream:stream xmlns='jabber:client'>"
        let (_, results) = parse([open + stanza + rest], stopAfter: { if case .element = $0 { true } else { false } })
        #expect(results == [.suspended(consumed: open.utf8.count + stanza.utf8.count)])
    }

    @Test func closingTagEndsTheStream() {
        let (events, _) = parse([open + "<presence/></stream:stream>"])
        #expect(events.last == .streamClosed)
    }

    @Test(arguments: [
        ("<!DOCTYPE x [<!ENTITY e 'boom'>]>", XMLStreamFailure.restrictedXML),
        ("<!-- hi -->", .restrictedXML),
        ("<?target data?>", .restrictedXML),
    ])
    func restrictedXMLBeforeTheStream(prefix: String, expected: XMLStreamFailure) {
        let (events, results) = parse([prefix + open])
        #expect(results == [.failed(expected)])
        #expect(events.isEmpty)
    }

    @Test func entitiesAreNeverExpanded() {
        let (events, results) = parse([open + "<message><body>&e;</body></message>"])
        #expect(results == [.failed(.notWellFormed)])
        #expect(events.count == 1)
    }

    @Test func limitsOnSizeAndDepth() {
        #expect(parse([open + "<message><body>" + String(repeating: "z", count: 2000) + "</body></message>"], maxElementBytes: 1000).results == [.failed(.tooLarge)])
        #expect(parse([open + "<a b='" + String(repeating: "z", count: 2000)], maxElementBytes: 1000).results == [.failed(.tooLarge)])
        #expect(parse([open + String(repeating: "<a>", count: 20)], maxDepth: 8).results == [.failed(.tooDeep)])
        #expect(parse([open + "<message><body>" + String(repeating: "z", count: 500) + "</body></message>"], maxElementBytes: 1000).results == [.consumedAll])
    }

    @Test func leadingWhitespaceBeforeARestartedStreamIsSkipped() {
        let (events, results) = parse(["\n", "\r\n <?xml version='1.0'?>" + open])
        #expect(results == [.consumedAll, .consumedAll])
        #expect(events.count == 1)
    }

    @Test func resetStartsAFreshDocument() {
        let parser = XMLStreamParser(maxElementBytes: 65536, maxDepth: 16)
        var opened = 0
        parser.handler = { if case .streamOpened = $0 { opened += 1 }; return true }
        _ = Array((open + "<presence/>").utf8).withUnsafeBytes { parser.feed($0) }
        parser.reset()
        let again = Array(("<?xml version='1.0'?>" + open).utf8).withUnsafeBytes { parser.feed($0) }
        #expect(again == .consumedAll)
        #expect(opened == 2)
    }

    @Test func escapingForOutput() {
        #expect(XMLEscaping.attribute("a'b\"c<&>") == "a&apos;b&quot;c&lt;&amp;&gt;")
        #expect(XMLEscaping.text("1 < 2 & 3 > 0") == "1 &lt; 2 &amp; 3 &gt; 0")
    }
}
