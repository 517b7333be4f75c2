// Pure parts of the XMPP server: what history a MUC join asks for (XEP-0045 §7.2.15)
// and the server's half of stream management for resumable streams (XEP-0198).
import Testing
import SandboxXML
@testable import SandboxXMPP

@Suite("MUC history requests")
struct RoomHistoryRequestTests {
    private func join(_ history: [String: String]?) -> XMPPElement {
        var x = XMPPElement(name: "x", namespace: XMPPNamespace.muc)
        if let history {
            x.children = [.element(XMPPElement(name: "history", namespace: XMPPNamespace.muc,
                                               attributes: history.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) }))]
        }
        return XMPPElement(name: "presence", namespace: XMPPNamespace.client, children: [.element(x)])
    }

    @Test func aJoinThatAsksNothingGetsTheDefault() {
        #expect(RoomHistoryRequest(join: join(nil), now: 1000) == RoomHistoryRequest(maxStanzas: 20))
        #expect(RoomHistoryRequest(join: XMPPElement(name: "presence", namespace: XMPPNamespace.client), now: 1000).maxStanzas == 20)
    }

    @Test func everyLimitIsRead() {
        #expect(RoomHistoryRequest(join: join(["maxstanzas": "0"]), now: 1000).maxStanzas == 0)
        #expect(RoomHistoryRequest(join: join(["maxstanzas": "3"]), now: 1000) == RoomHistoryRequest(maxStanzas: 3))
        #expect(RoomHistoryRequest(join: join(["maxstanzas": "99999"]), now: 1000).maxStanzas == RoomHistoryRequest.stanzaCeiling)
        #expect(RoomHistoryRequest(join: join(["maxchars": "65000"]), now: 1000) == RoomHistoryRequest(maxChars: 65000))
        #expect(RoomHistoryRequest(join: join(["seconds": "180"]), now: 1000) == RoomHistoryRequest(notBefore: 820))
        #expect(RoomHistoryRequest(join: join(["since": "1970-01-01T00:10:00Z"]), now: 1000) == RoomHistoryRequest(notBefore: 600))
        // Both: the later bound holds.
        #expect(RoomHistoryRequest(join: join(["seconds": "180", "since": "1970-01-01T00:10:00Z"]), now: 1000).notBefore == 820)
    }

    @Test(arguments: ["-1", "many", "", "1.5"])
    func whatIsNoCountIsIgnored(value: String) {
        #expect(RoomHistoryRequest(join: join(["maxstanzas": value, "maxchars": value, "seconds": value]), now: 1000) == RoomHistoryRequest())
    }

    @Test(arguments: [
        ("2026-11-30T21:14:35Z", 1_796_073_275.0), ("2026-11-30T21:14:35.123456Z", 1_796_073_275),
        ("2026-11-30T22:14:35+01:00", 1_796_073_275), ("2026-11-30T20:14:35-01:00", 1_796_073_275),
        ("2026-11-30T21:14:35", nil), ("yesterday", nil), ("2026-11-30T21:14:35+1:00", nil),
    ] as [(String, Double?)])
    func dateTimes(text: String, expected: Double?) {
        #expect(RoomHistoryRequest.dateTime(text) == expected)
    }

    @Test func maxcharsKeepsTheNewestWholeStanzasThatFit() {
        let stanzas = ["<a>1</a>", "<b>22</b>", "<c>333</c>"]   // 8, 9 and 10 characters, oldest first
        #expect(RoomHistoryRequest(maxChars: 19).fitting(stanzas) == ["<b>22</b>", "<c>333</c>"])
        #expect(RoomHistoryRequest(maxChars: 18).fitting(stanzas) == ["<c>333</c>"])
        #expect(RoomHistoryRequest(maxChars: 9).fitting(stanzas) == [])
        #expect(RoomHistoryRequest(maxChars: 0).fitting(stanzas) == [])
        #expect(RoomHistoryRequest().fitting(stanzas) == stanzas)
    }
}

@Suite("Unacknowledged stanzas of a resumable stream")
struct UnacknowledgedStanzasTests {
    @Test func stanzasAreKeptUntilAcknowledgedAndAcksAreAskedForEveryN() {
        var queue = UnacknowledgedStanzas(requestEvery: 3, capacity: 100)
        let asks = (1...4).map { queue.record(Array("<message id='\($0)'/>".utf8)) }
        #expect(asks == [false, false, true, false], "the third asks for an ack")
        #expect(queue.sentCount == 4 && queue.pending.count == 4)
        let first = queue.acknowledge(2)
        #expect(first == .accepted)
        #expect(queue.pending.map { String(decoding: $0, as: UTF8.self) } == ["<message id='3'/>", "<message id='4'/>"] && queue.acknowledgedCount == 2)
        let again = queue.acknowledge(2)
        #expect(again == .accepted && queue.pending.count == 2, "the same h again changes nothing")
        let all = queue.acknowledge(4)
        #expect(all == .accepted && queue.pending.isEmpty)
    }

    @Test func acknowledgingMoreThanWasSentEmptiesTheQueue() {
        var queue = UnacknowledgedStanzas()
        _ = queue.record(Array("<iq/>".utf8))
        let tooMany = queue.acknowledge(5)
        #expect(tooMany == .tooMany(sent: 1))
        #expect(queue.pending.isEmpty)
        _ = queue.record(Array("<iq/>".utf8))
        let next = queue.acknowledge(2)
        #expect(next == .accepted)
    }

    @Test func overflowingBeyondCapacity() {
        var queue = UnacknowledgedStanzas(capacity: 2)
        for _ in 0..<2 { _ = queue.record(Array("<message/>".utf8)) }
        #expect(!queue.isOverflowing)
        _ = queue.record(Array("<message/>".utf8))
        #expect(queue.isOverflowing)
    }

    @Test(arguments: [("<message to='a'/>", true), ("<presence/>", true), ("<iq type='get'>", true), ("<message>", true),
                      ("<messages/>", false), ("<a xmlns='urn:xmpp:sm:3' h='1'/>", false), ("<r/>", false),
                      ("<stream:features/>", false), ("</stream:stream>", false), ("<iqx/>", false)])
    func stanzasAreToldFromNonzas(text: String, isStanza: Bool) {
        #expect(UnacknowledgedStanzas.isStanza(text) == isStanza)
    }
}
