import Foundation
import Testing
import SandboxXML
@testable import SandboxXMPP

/// Which IQs to other users the session lets through to the router (docs/protocol.md §7,
/// "Presence and last activity"): last activity of a user's bare JID, nothing else.
@Suite("XMPPSession: last activity")
struct XMPPSessionLastActivityTests {
    private func established() -> XMPPSession {
        var session = XMPPSession(domain: "localhost", applicationId: 3, tlsAvailable: false)
        let header = XMPPStreamHeader(name: "stream", namespace: XMPPNamespace.streams, attributes: ["to": "localhost"],
                                      defaultNamespace: XMPPNamespace.client)
        _ = session.handle(.streamOpened(header, streamId: "s1"))
        _ = session.handle(.element(XMPPElement(name: "auth", namespace: XMPPNamespace.sasl, attributes: [.init(name: "mechanism", value: "PLAIN")],
                                                children: [.text(Data("\u{0}42-3\u{0}pw".utf8).base64EncodedString())])))
        _ = session.handle(.authenticationChecked(userId: 42, accepted: true))
        _ = session.handle(.streamOpened(header, streamId: "s2"))
        _ = session.handle(.element(XMPPElement(name: "iq", namespace: XMPPNamespace.client, attributes: [.init(name: "type", value: "set"), .init(name: "id", value: "b")],
                                                children: [.element(XMPPElement(name: "bind", namespace: XMPPNamespace.bind))])))
        _ = session.handle(.resourceBound("r1", iqId: "b"))
        return session
    }

    private func iq(_ type: String, to: String, _ payload: XMPPElement) -> XMPPElement {
        XMPPElement(name: "iq", namespace: XMPPNamespace.client,
                    attributes: [.init(name: "type", value: type), .init(name: "id", value: "q1"), .init(name: "to", value: to)],
                    children: [.element(payload)])
    }

    private let last = XMPPElement(name: "query", namespace: XMPPNamespace.lastActivity)

    @Test func lastActivityOfAUsersBareJIDGoesToTheRouter() {
        var session = established()
        #expect(session.phase == .established)
        let asked = iq("get", to: "7-3@localhost", last)
        #expect(session.handle(.element(asked)) == [.route(asked, .iq)])
    }

    @Test(arguments: [
        ("get", "7-3@localhost/phone", "jabber:iq:last"),   // a client's idle time: not the server's to answer
        ("set", "7-3@localhost", "jabber:iq:last"),
        ("get", "7-3@localhost", "jabber:iq:version"),
    ])
    func otherIQsToUsersAreRefusedAtOnce(type: String, to: String, namespace: String) {
        var session = established()
        let actions = session.handle(.element(iq(type, to: to, XMPPElement(name: "query", namespace: namespace))))
        #expect(actions.count == 1)
        guard case .send(let reply)? = actions.first else { Issue.record("no reply: \(actions)"); return }
        #expect(reply.contains("type='error'") && reply.contains("service-unavailable"))
    }

    /// An address of the domain that is no user of the application gets no answer, as from the
    /// hosted service: QuickBlox's SDK suite pings `-1-{app}@{domain}` and expects silence.
    @Test(arguments: [
        ("get", "-1-7@localhost", "urn:xmpp:ping", "ping"),
        ("get", "7-4@localhost", "jabber:iq:last", "query"),   // another application's user
        ("get", "nobody@localhost/phone", "urn:xmpp:ping", "ping"),
    ])
    func iqsToAddressesThatNameNoUserGoUnanswered(type: String, to: String, namespace: String, name: String) {
        var session = established()
        #expect(session.handle(.element(iq(type, to: to, XMPPElement(name: name, namespace: namespace)))) == [])
    }
}
