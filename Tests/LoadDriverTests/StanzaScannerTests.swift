import Testing
@testable import LoadDriver
import XMPPTransport

/// The load driver reads the sandbox's stream by finding where each element ends: it must
/// hand out every stanza whole, once, however the bytes are cut.
@Suite struct StanzaScannerTests {
    static let stream = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='x' from='localhost' version='1.0'>"
        + "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features>"
        + "<message type='chat' from='1-1@localhost/r' to='2-1@localhost' id='a1'><body>load p 1 7 99</body><extraParams xmlns='jabber:client'><dialog_id>d</dialog_id></extraParams></message>"
        + "\n <r xmlns='urn:xmpp:sm:3'/>"
        + "<presence from='room@muc.localhost/2' to='1-1@localhost/r' note='a > b'><x xmlns='http://jabber.org/protocol/muc#user'><item jid='2-1@localhost/s' role='participant'/></x></presence>"
        + "</stream:stream>"

    static func items(_ chunks: [String]) -> [StanzaScanner.Item] {
        var scanner = StanzaScanner()
        var out: [StanzaScanner.Item] = []
        for chunk in chunks {
            scanner.append(Array(chunk.utf8))
            while let item = scanner.next() { out.append(item) }
        }
        return out
    }

    static var expected: [StanzaScanner.Item] {
        [.streamOpened,
         .element(ScannedElement("<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features>")),
         .element(ScannedElement("<message type='chat' from='1-1@localhost/r' to='2-1@localhost' id='a1'><body>load p 1 7 99</body><extraParams xmlns='jabber:client'><dialog_id>d</dialog_id></extraParams></message>")),
         .element(ScannedElement("<r xmlns='urn:xmpp:sm:3'/>")),
         .element(ScannedElement("<presence from='room@muc.localhost/2' to='1-1@localhost/r' note='a > b'><x xmlns='http://jabber.org/protocol/muc#user'><item jid='2-1@localhost/s' role='participant'/></x></presence>")),
         .streamClosed]
    }

    @Test func aWholeStreamAtOnceGivesEachElementOnce() {
        #expect(Self.items([Self.stream]) == Self.expected)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func theSameStreamCutIntoPiecesGivesTheSameElements(size: Int) {
        let bytes = Array(Self.stream.utf8)
        var chunks: [String] = []
        var i = 0
        while i < bytes.count {
            chunks.append(String(decoding: bytes[i..<min(i + size, bytes.count)], as: UTF8.self))
            i += size
        }
        #expect(Self.items(chunks) == Self.expected)
    }

    @Test func nothingIsKeptOnceItIsHandedOut() {
        var scanner = StanzaScanner()
        scanner.append(Array("<stream:stream xmlns='jabber:client'>".utf8))
        #expect(scanner.next() == .streamOpened)
        for _ in 0..<1000 {
            scanner.append(Array("<a xmlns='urn:xmpp:sm:3' h='5'/>".utf8))
            while scanner.next() != nil {}
        }
        scanner.append(Array("<message><body>half".utf8))
        #expect(scanner.next() == nil)
        #expect(scanner.bufferedCount < 2 * 64)
    }

    @Test func aCommentIsMalformedOnceAndThenNothingIsRead() {
        #expect(Self.items(["<stream:stream><!-- no -->", "<r/>"]) == [.streamOpened, .malformed])
    }

    @Test func theLookupsReadNamesAttributesAndText() throws {
        let message = ScannedElement("<message type='chat' id=\"q'1\"><body>load g 3 4 5</body><markable xmlns='urn:xmpp:chat-markers:0'/><subject/></message>")
        #expect(message.name == "message")
        #expect(message.isNamed("message"))
        #expect(!message.isNamed("mess"))
        #expect(message.attribute("type") == "chat")
        #expect(message.attribute("id") == "q'1")
        #expect(message.attribute("to") == nil)
        #expect(message.childText("body").map { String(decoding: $0, as: UTF8.self) } == "load g 3 4 5")
        #expect(message.childText("subject").map(Array.init) == [])
        #expect(message.contains(child: "markable"))
        #expect(!message.contains(child: "mark"))
        #expect(ScannedElement("<stream:error><conflict/></stream:error>").isNamed("stream:error"))
    }
}

@Suite struct LoadMessageTests {
    @Test func aBodyReadsBackAsTheMessageItWasMadeFrom() throws {
        let message = LoadMessage(kind: .group, sender: 12, sequence: 345, sentAt: 1_234_567_890_123)
        #expect(message.body == "load g 12 345 1234567890123")
        #expect(LoadMessage(body: Array(message.body.utf8)) == message)
    }

    @Test(arguments: ["hello", "load x 1 2 3", "load p 1 2", "load p 1 2 3 4", "load p 1  2 3", "load p a 2 3", ""])
    func otherBodiesAreNotLoadMessages(body: String) {
        #expect(LoadMessage(body: Array(body.utf8)) == nil)
    }

    @Test func aStanzaIsChatctlsWithAFreshObjectId() {
        var ids = ObjectIDGenerator()
        let stanza = MessageStanza(to: "2-1@localhost", groupchat: false, dialogId: "d1")
        var out: [UInt8] = []
        let first = ids.next(unixTime: 0x6b0d_b884)
        stanza.render(id: first, body: "load p 0 1 5", dateSent: 1796061316, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text == "<message type='chat' to='2-1@localhost' id='\(first.rawValue)'><body>load p 0 1 5</body><markable xmlns='urn:xmpp:chat-markers:0'/><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>d1</dialog_id><date_sent>1796061316</date_sent></extraParams></message>")
        #expect(first.rawValue.count == 24 && first.rawValue.hasPrefix("6b0db884"))
        #expect(ids.next(unixTime: 0x6b0d_b884) != first)
    }
}

@Suite struct DeliveryLedgerTests {
    @Test func inOrderOnceIsClean() {
        var ledger = DeliveryLedger()
        for n in 1...5 {
            let accepted = ledger.record(stream: 1, sequence: n)
            #expect(accepted)
        }
        for n in 1...3 {
            let accepted = ledger.record(stream: 2, sequence: n)
            #expect(accepted)
        }
        #expect(ledger.delivered == 8 && ledger.duplicates == 0 && ledger.gaps == 0)
    }

    @Test func aRepeatAndAGapAreCounted() {
        var ledger = DeliveryLedger()
        ledger.record(stream: 1, sequence: 1)
        let repeated = ledger.record(stream: 1, sequence: 1)
        let skipped = ledger.record(stream: 1, sequence: 3)
        #expect(!repeated && !skipped)
        #expect(ledger.delivered == 2 && ledger.duplicates == 1 && ledger.gaps == 1)
    }

    @Test func percentilesAreNearestRank() {
        var samples = LatencySamples()
        for ms in 1...100 { samples.record(nanoseconds: UInt64(ms) * 1_000_000) }
        let summary = samples.summary
        #expect(summary.p50Ms == 50 && summary.p99Ms == 99 && summary.maxMs == 100 && summary.count == 100)
    }
}
