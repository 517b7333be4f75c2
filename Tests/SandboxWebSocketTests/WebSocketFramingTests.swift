// RFC 7395 framing as pure functions (docs/protocol.md §7): the server's stream text
// becomes one message per element, and a client's message parses as stream children.
import Testing
import SandboxWebSocket
import SandboxXML

@Suite struct WebSocketFramingTests {
    static let streams = "http://etherx.jabber.org/streams"
    static let framing = "urn:ietf:params:xml:ns:xmpp-framing"

    @Test func streamHeaderAndFeaturesBecomeOpenAndAStandAloneFeaturesMessage() {
        let text = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='\(Self.streams)' id='abc' from='localhost' version='1.0' xml:lang='en'><stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>"
        #expect(WebSocketFraming.messages(fromStream: text) == [
            "<open xmlns='\(Self.framing)' id='abc' from='localhost' version='1.0' xml:lang='en'/>",
            "<stream:features xmlns:stream='\(Self.streams)'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>",
        ])
    }

    @Test func stanzasDeclareJabberClientUnlessTheyDeclareANamespaceOfTheirOwn() {
        #expect(WebSocketFraming.messages(fromStream: "<message from='a' to='b' type='chat'><body>x</body></message>")
                == ["<message xmlns='jabber:client' from='a' to='b' type='chat'><body>x</body></message>"])
        #expect(WebSocketFraming.messages(fromStream: "<presence/>") == ["<presence xmlns='jabber:client'/>"])
        #expect(WebSocketFraming.messages(fromStream: "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>")
                == ["<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"])
        #expect(WebSocketFraming.messages(fromStream: "<a xmlns='urn:xmpp:sm:3' h='3'/>") == ["<a xmlns='urn:xmpp:sm:3' h='3'/>"])
    }

    @Test func severalElementsInOneWriteAreSeveralMessages() {
        let text = "<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:stream>"
        #expect(WebSocketFraming.messages(fromStream: text) == ["<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>", WebSocketFraming.closeMessage])
        let error = "<stream:error><not-well-formed xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error></stream:stream>"
        #expect(WebSocketFraming.messages(fromStream: error) == [
            "<stream:error xmlns:stream='\(Self.streams)'><not-well-formed xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error>",
            WebSocketFraming.closeMessage,
        ])
    }

    @Test func nestedElementsOfTheSameNameAndQuotedAnglesStayInTheirMessage() {
        let first = "<message id=\"it's\" note='a/b'><message><message/></message><body>a &lt; b &gt; c</body></message>"
        let second = "<iq type='result' id='x>y'/>"
        #expect(WebSocketFraming.messages(fromStream: first + "\n" + second) == [
            "<message xmlns='jabber:client' id=\"it's\" note='a/b'><message><message/></message><body>a &lt; b &gt; c</body></message>",
            "<iq xmlns='jabber:client' type='result' id='x>y'/>",
        ])
    }

    /// Strophe.js 1.2 compares incoming messages with this exact text to notice the close.
    @Test func closeIsSpeltAsStropheComparesIt() {
        #expect(WebSocketFraming.closeMessage == #"<close xmlns="urn:ietf:params:xml:ns:xmpp-framing" />"#)
        #expect(WebSocketFraming.messages(fromStream: "</stream:stream>") == [WebSocketFraming.closeMessage])
    }

    /// What the parser makes of one client message.
    private func events(_ message: String) -> (events: [XMLStreamEvent], result: XMLFeedResult) {
        let parser = XMLStreamParser(maxElementBytes: 65536, maxDepth: 32)
        var seen: [XMLStreamEvent] = []
        parser.handler = { seen.append($0); return true }
        let result = WebSocketFraming.document(forMessage: Array(message.utf8)).withUnsafeBytes { parser.feed($0) }
        return (seen, result)
    }

    @Test func aClientMessageParsesAsTheChildrenOfAJabberClientStream() throws {
        let (open, openResult) = events("<?xml version='1.0'?>\n<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        #expect(openResult == .consumedAll)
        #expect(open.count == 3)
        guard open.count == 3, case .element(let element) = open[1] else { return }
        #expect(element.name == "open" && element.namespace == Self.framing)
        let header = WebSocketFraming.header(fromOpen: element)
        #expect(header.isStreamTag && header.defaultNamespace == "jabber:client")
        #expect(header.attributes["to"] == "localhost" && header.attributes["version"] == "1.0")

        let (stanza, _) = events("<message to='1-1@localhost'><body>hi</body></message>")
        guard stanza.count == 3, case .element(let message) = stanza[1] else { Issue.record("no element: \(stanza)"); return }
        #expect(message.name == "message" && message.namespace == "jabber:client")
        #expect(message.child("body")?.text == "hi")
    }

    @Test(arguments: ["hello there", "<message><body>half", "</stream:stream><x/>", "<a/>junk", "<?xml version='1.0'?><!DOCTYPE x><x/>"])
    func aMessageThatIsNotWholeElementsDoesNotParse(message: String) {
        guard case .failed = events(message).result else {
            Issue.record("\(message) parsed")
            return
        }
    }
}
