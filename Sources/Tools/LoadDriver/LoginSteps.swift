#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One load client's way from a TCP connection to a bound stream, as a value: what the
/// server said in, what to do out, tested without a socket. The steps are chatctl's (docs/protocol.md
/// §7): STARTTLS (the certificate checked against the sandbox's CA), SASL PLAIN with the
/// session token, bind, stream management with resumption asked for, the initial presence,
/// and, when it has a room, the MUC join, done at the room's subject.
package struct LoginSteps {
    package enum Phase: Equatable {
        case connecting, awaitingTLSOffer, awaitingProceed, handshaking, awaitingAuthFeatures, awaitingSASL,
             awaitingBindFeatures, awaitingBind, awaitingEnabled, joining, ready
        case failed(String)
    }

    /// What the connection saw.
    package enum Event: Equatable {
        case connected
        case streamOpened
        case element(ScannedElement)
        case tlsEstablished
        case closed
    }

    package enum Action: Equatable {
        case write(String)
        /// Put TLS under the stream and start reading a new stream.
        case startTLS
        /// Read a new stream from here (after SASL success).
        case restartStream
        /// Stream management is on from here: count stanzas both ways.
        case countStanzas
        case ready
        case fail(String)
    }

    package let domain: String
    /// `{userId}-{appId}`.
    package let node: String
    package let secret: String
    /// `{room}/{nick}` to join once bound, nil for none.
    package let roomOccupantJID: String?
    package private(set) var phase = Phase.connecting

    package init(domain: String, node: String, secret: String, roomOccupantJID: String?) {
        self.domain = domain
        self.node = node
        self.secret = secret
        self.roomOccupantJID = roomOccupantJID
    }

    private var header: String {
        "<?xml version='1.0'?><stream:stream to='\(domain)' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>"
    }

    package mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.failed, _), (.ready, .element), (.ready, .streamOpened), (.ready, .tlsEstablished):
            return []
        case (_, .closed):
            return fail("the server closed the connection while \(phase)")
        case (.connecting, .connected):
            phase = .awaitingTLSOffer
            return [.write(header)]
        case (.handshaking, .tlsEstablished):
            phase = .awaitingAuthFeatures
            return [.write(header)]
        case (_, .streamOpened):
            return []
        case (_, .element(let element)):
            if element.isNamed("stream:error") {
                return fail("stream error: \(String(decoding: element.bytes, as: UTF8.self))")
            }
            return received(element)
        default:
            return fail("unexpected \(event) while \(phase)")
        }
    }

    private mutating func received(_ element: ScannedElement) -> [Action] {
        switch phase {
        case .awaitingTLSOffer:
            guard element.isNamed("stream:features") else { return [] }
            guard element.contains(child: "starttls") else { return fail("the server offers no STARTTLS") }
            phase = .awaitingProceed
            return [.write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")]
        case .awaitingProceed:
            guard element.isNamed("proceed") else { return fail("STARTTLS refused: \(element.name)") }
            phase = .handshaking
            return [.startTLS]
        case .awaitingAuthFeatures:
            guard element.isNamed("stream:features") else { return [] }
            let plain = "\0\(node)\0\(secret)"
            phase = .awaitingSASL
            return [.write("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>\(Data(plain.utf8).base64EncodedString())</auth>")]
        case .awaitingSASL:
            guard element.isNamed("success") else { return fail("SASL refused: \(String(decoding: element.bytes, as: UTF8.self))") }
            phase = .awaitingBindFeatures
            return [.restartStream, .write(header)]
        case .awaitingBindFeatures:
            guard element.isNamed("stream:features") else { return [] }
            phase = .awaitingBind
            return [.write("<iq type='set' id='bind-1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")]
        case .awaitingBind:
            guard element.isNamed("iq"), element.attribute("id") == "bind-1" else { return [] }
            guard element.attribute("type") == "result" else { return fail("bind refused") }
            phase = .awaitingEnabled
            // As libstrophe does for chatctl: resumption asked for.
            return [.write("<enable xmlns='urn:xmpp:sm:3' resume='true'/>"), .countStanzas, .write("<presence/>")]
        case .awaitingEnabled:
            guard element.isNamed("enabled") else {
                return element.isNamed("failed") ? fail("stream management refused") : []
            }
            guard let room = roomOccupantJID else {
                phase = .ready
                return [.ready]
            }
            phase = .joining
            return [.write("<presence to='\(room)'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>")]
        case .joining:
            // XEP-0045 §7.2: the subject, from the room's bare JID, ends a join; an error presence fails it.
            if element.isNamed("presence"), element.attribute("type") == "error" { return fail("the room refused the join") }
            guard element.isNamed("message"), element.contains(child: "subject") else { return [] }
            phase = .ready
            return [.ready]
        case .connecting, .handshaking, .ready, .failed:
            return []
        }
    }

    private mutating func fail(_ why: String) -> [Action] {
        phase = .failed(why)
        return [.fail(why)]
    }
}
