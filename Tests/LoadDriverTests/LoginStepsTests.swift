import Foundation
import Testing
@testable import LoadDriver

/// A load client logs in as chatctl does (docs/protocol.md §7), step by step, without sockets.
@Suite struct LoginStepsTests {
    static func element(_ text: String) -> LoginSteps.Event { .element(ScannedElement(text)) }

    /// The steps in a box, so `#expect` can take what they answer.
    final class Box {
        var steps: LoginSteps
        init(_ steps: LoginSteps) { self.steps = steps }
        func handle(_ event: LoginSteps.Event) -> [LoginSteps.Action] { steps.handle(event) }
        var phase: LoginSteps.Phase { steps.phase }
    }

    static func writes(_ actions: [LoginSteps.Action]) -> [String] {
        actions.compactMap { if case .write(let text) = $0 { return text } else { return nil } }
    }

    @Test func fromTCPToAJoinedRoom() throws {
        let steps = Box(LoginSteps(domain: "localhost", node: "5-1", secret: "token", roomOccupantJID: "1_d@muc.localhost/5"))
        #expect(Self.writes(steps.handle(.connected)).first?.contains("<stream:stream to='localhost'") == true)
        #expect(steps.handle(.streamOpened) == [])
        #expect(steps.handle(Self.element("<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/><mechanisms/></stream:features>"))
                == [.write("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")])
        #expect(steps.handle(Self.element("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")) == [.startTLS])
        #expect(Self.writes(steps.handle(.tlsEstablished)).count == 1)
        let auth = Self.writes(steps.handle(Self.element("<stream:features><mechanisms><mechanism>PLAIN</mechanism></mechanisms></stream:features>")))
        let plain = Data("\u{0}5-1\u{0}token".utf8).base64EncodedString()
        #expect(auth == ["<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>\(plain)</auth>"])
        let success = steps.handle(Self.element("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"))
        #expect(success.first == .restartStream && Self.writes(success).count == 1)
        #expect(Self.writes(steps.handle(Self.element("<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/><sm xmlns='urn:xmpp:sm:3'/></stream:features>")))
                == ["<iq type='set' id='bind-1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>"])
        #expect(steps.handle(Self.element("<iq type='result' id='bind-1'><bind><jid>5-1@localhost/r</jid></bind></iq>"))
                == [.write("<enable xmlns='urn:xmpp:sm:3' resume='true'/>"), .countStanzas, .write("<presence/>")])
        #expect(Self.writes(steps.handle(Self.element("<enabled xmlns='urn:xmpp:sm:3' id='x' resume='true' max='300'/>")))
                == ["<presence to='1_d@muc.localhost/5'><x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x></presence>"])
        #expect(steps.handle(Self.element("<presence from='1_d@muc.localhost/5'><x><status code='110'/></x></presence>")) == [])
        #expect(steps.handle(Self.element("<message type='groupchat' from='1_d@muc.localhost'><subject>g</subject></message>")) == [.ready])
        #expect(steps.phase == .ready)
    }

    @Test func withoutARoomItIsReadyOnceStreamManagementIsOn() {
        let steps = Box(LoginSteps(domain: "localhost", node: "5-1", secret: "t", roomOccupantJID: nil))
        for event: LoginSteps.Event in [.connected, Self.element("<stream:features><starttls/></stream:features>"),
                                        Self.element("<proceed/>"), .tlsEstablished, Self.element("<stream:features/>"),
                                        Self.element("<success/>"), Self.element("<stream:features/>"),
                                        Self.element("<iq type='result' id='bind-1'/>")] {
            _ = steps.handle(event)
        }
        #expect(steps.handle(Self.element("<enabled xmlns='urn:xmpp:sm:3'/>")) == [.ready])
    }

    @Test(arguments: [
        ("<stream:features><mechanisms/></stream:features>", "no STARTTLS"),
        ("<stream:error><host-unknown/></stream:error>", "stream error"),
    ])
    func aServerThatWillNotGoOnFailsTheLogin(reply: String, reason: String) {
        let steps = Box(LoginSteps(domain: "localhost", node: "5-1", secret: "t", roomOccupantJID: nil))
        _ = steps.handle(.connected)
        let actions = steps.handle(Self.element(reply))
        guard case .fail(let why)? = actions.last else { Issue.record("no failure: \(actions)"); return }
        #expect(why.contains(reason))
        #expect(steps.handle(Self.element("<proceed/>")) == [])
    }

    @Test func aRefusedLoginFails() {
        let steps = Box(LoginSteps(domain: "localhost", node: "5-1", secret: "t", roomOccupantJID: nil))
        for event: LoginSteps.Event in [.connected, Self.element("<stream:features><starttls/></stream:features>"),
                                        Self.element("<proceed/>"), .tlsEstablished, Self.element("<stream:features/>")] {
            _ = steps.handle(event)
        }
        guard case .fail(let why)? = steps.handle(Self.element("<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/></failure>")).last
        else { Issue.record("no failure"); return }
        #expect(why.contains("SASL refused"))
    }
}
