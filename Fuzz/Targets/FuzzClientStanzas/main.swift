// libFuzzer target: the client's reading of stanzas (docs/protocol.md §7). The input is
// one or more XML elements separated by NUL bytes; each is parsed by libstrophe's own
// parser into a StanzaElement (the bridge every incoming stanza takes) and routed as
// XMPPConnection.handleStanza routes it: messages to ChatEvent.parse, presences and
// IQs to the session state machine, stream-management answers to the delivery tracker.
import FuzzSupport
import XMPPTransport

private let room = ChatJID(parsing: "7_abc@muc.localhost")!
private let ownJID = ChatJID(parsing: "1-7@localhost/res")!

runFuzzer { input in
    var state = ChatSessionState()
    _ = state.handle(.connectRequested)
    _ = state.handle(.sessionEstablished)
    _ = state.handle(.joinRequested(room: room, nick: "1"))
    var tracker = DeliveryTracker(requestEvery: 2)
    var generator = ObjectIDGenerator(randomPart: [1, 2, 3, 4, 5], counter: 1)
    tracker.enabled()
    for _ in 0..<3 { _ = tracker.recordSent(messageID: generator.next()) }
    for piece in input.split(separator: 0, omittingEmptySubsequences: true) {
        guard let element = StanzaElement(parsingWithStrophe: String(decoding: piece, as: UTF8.self)) else { continue }
        if element.namespace == "urn:xmpp:sm:3" {
            switch element.name {
            case "enabled": tracker.enabled()
            case "failed": tracker.failed()
            case "a": if let h = element[attribute: "h"].flatMap({ UInt32($0) }) { _ = tracker.acknowledge(h: h) }
            default: break
            }
            continue
        }
        switch element.name {
        case "message":
            _ = ChatEvent.parse(element, receivedAt: 1_700_000_000, ownJID: ownJID).map { "\($0)" }
        case "presence":
            if let presence = RoomPresence(element) { _ = state.handle(.roomPresence(presence)) }
        case "iq":
            _ = state.handle(.iqReceived(type: element[attribute: "type"] ?? "", id: element[attribute: "id"] ?? "",
                                         from: element[attribute: "from"],
                                         isPing: element.child("ping", namespace: "urn:xmpp:ping") != nil))
        default:
            break
        }
    }
}
