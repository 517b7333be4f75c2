import Foundation
import Testing
import SandboxXML
@testable import SandboxXMPP

/// The per-stream state machine, without sockets.
@Suite("XMPPSession state machine")
struct XMPPSessionTests {
    private let header = XMPPStreamHeader(name: "stream", namespace: XMPPNamespace.streams,
                                          attributes: ["to": "localhost", "version": "1.0"], defaultNamespace: XMPPNamespace.client)

    private func element(_ name: String, _ namespace: String, _ attributes: [String: String] = [:], _ children: [XMPPElement.Node] = []) -> XMPPElement {
        XMPPElement(name: name, namespace: namespace, attributes: attributes.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) }, children: children)
    }

    private func sent(_ actions: [XMPPSession.Action]) -> String {
        actions.compactMap { if case .send(let s) = $0 { s } else { nil } }.joined()
    }

    private func auth(_ authcid: String, _ secret: String) -> XMPPElement {
        element("auth", XMPPNamespace.sasl, ["mechanism": "PLAIN"], [.text(Data("\0\(authcid)\0\(secret)".utf8).base64EncodedString())])
    }

    /// Conditions are spelled as RFC 6120 names them, from their cases' names.
    @Test func definedConditionsHaveTheirRFCNames() {
        let stream: [XMPPStreamError] = [.badFormat, .conflict, .connectionTimeout, .hostUnknown, .internalServerError, .invalidNamespace,
                                         .notAuthorized, .notWellFormed, .policyViolation, .restrictedXML, .systemShutdown, .unsupportedStanzaType]
        #expect(stream.map(\.rawValue) == ["bad-format", "conflict", "connection-timeout", "host-unknown", "internal-server-error",
                                           "invalid-namespace", "not-authorized", "not-well-formed", "policy-violation", "restricted-xml",
                                           "system-shutdown", "unsupported-stanza-type"])
        let stanza: [StanzaError.Condition] = [.badRequest, .forbidden, .internalServerError, .itemNotFound, .jidMalformed, .notAcceptable,
                                               .registrationRequired, .resourceConstraint, .serviceUnavailable, .unexpectedRequest]
        #expect(stanza.map(\.rawValue) == ["bad-request", "forbidden", "internal-server-error", "item-not-found", "jid-malformed",
                                           "not-acceptable", "registration-required", "resource-constraint", "service-unavailable",
                                           "unexpected-request"])
    }

    @Test func fullLoginWalksThePhases() {
        var session = XMPPSession(domain: "LocalHost", applicationId: 3)
        #expect(session.phase == .awaitingStream)
        let features = session.handle(.streamOpened(header, streamId: "s1"))
        #expect(session.phase == .negotiating)
        #expect(sent(features).contains("<starttls"))

        #expect(session.handle(.element(element("starttls", XMPPNamespace.tls))) == [.send("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"), .startTLS])
        #expect(session.phase == .securing)
        #expect(session.handle(.tlsEstablished) == [])
        #expect(session.isSecure && session.phase == .awaitingStream)
        #expect(!sent(session.handle(.streamOpened(header, streamId: "s2"))).contains("starttls"))

        #expect(session.handle(.element(auth("42-3", "pw"))) == [.authenticate(userId: 42, secret: "pw")])
        #expect(session.phase == .authenticating(userId: 42))
        #expect(session.handle(.authenticationChecked(userId: 42, accepted: true)) == [.send("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"), .restartStream])
        #expect(session.bareJID == "42-3@localhost")
        let postAuth = sent(session.handle(.streamOpened(header, streamId: "s3")))
        #expect(postAuth.hasPrefix("<?xml version='1.0'?><stream:stream "))
        #expect(postAuth.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>") && postAuth.contains("<sm xmlns='urn:xmpp:sm:3'/>"))
        #expect(session.phase == .binding)

        let bind = element("iq", XMPPNamespace.client, ["type": "set", "id": "b"], [.element(element("bind", XMPPNamespace.bind))])
        #expect(session.handle(.element(bind)) == [.bindResource(requested: nil, iqId: "b")])
        #expect(sent(session.handle(.resourceBound("r1", iqId: "b"))).contains("<jid>42-3@localhost/r1</jid>"))
        #expect(session.phase == .established && session.fullJID == "42-3@localhost/r1")

        let message = element("message", XMPPNamespace.client, ["to": "7-3@localhost", "type": "chat"])
        #expect(session.handle(.element(message)) == [.route(message, .message)])
    }

    @Test(arguments: [("5-3", 5), ("5-3@localhost", 5), ("5-3@LOCALHOST/res", 5), ("5-4", nil), ("5-3@other", nil), ("x-3", nil), ("5", nil), ("0-3", nil), ("5-3-1", nil)] as [(String, Int?)])
    func authcidForms(identity: String, expected: Int?) {
        #expect(XMPPSession(domain: "localhost", applicationId: 3).userIdentifier(identity) == expected)
    }

    @Test func rejectedCredentialsFailThenEndTheStream() {
        var session = XMPPSession(domain: "localhost", applicationId: 3, maxFailedAuthentications: 2)
        _ = session.handle(.streamOpened(header, streamId: "s"))
        _ = session.handle(.element(auth("5-3", "bad")))
        #expect(session.handle(.authenticationChecked(userId: 5, accepted: false)) == [.send("<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/></failure>")])
        #expect(session.phase == .negotiating)
        // Wrong application: refused without asking the authenticator.
        let second = session.handle(.element(auth("5-9", "pw")))
        #expect(sent(second).contains("<not-authorized/>"))
        #expect(sent(second).contains("<not-authorized xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"))
        #expect(second.last == .close && session.phase == .closed)
        #expect(session.handle(.element(auth("5-3", "pw"))) == [])
    }

    @Test func plainWithoutInitialResponseGetsAChallenge() {
        var session = XMPPSession(domain: "localhost", applicationId: 3)
        _ = session.handle(.streamOpened(header, streamId: "s"))
        #expect(session.handle(.element(element("auth", XMPPNamespace.sasl, ["mechanism": "PLAIN"]))) == [.send("<challenge xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>")])
        let response = element("response", XMPPNamespace.sasl, [:], [.text(Data("\05-3\0pw".utf8).base64EncodedString())])
        #expect(session.handle(.element(response)) == [.authenticate(userId: 5, secret: "pw")])
    }

    @Test func unknownMechanismIsRefused() {
        var session = XMPPSession(domain: "localhost", applicationId: 3)
        _ = session.handle(.streamOpened(header, streamId: "s"))
        #expect(sent(session.handle(.element(element("auth", XMPPNamespace.sasl, ["mechanism": "SCRAM-SHA-1"])))).contains("<invalid-mechanism/>"))
    }

    @Test func streamHeaderChecks() {
        var wrongHost = XMPPSession(domain: "localhost", applicationId: 3)
        var other = header
        other.attributes["to"] = "example.com"
        #expect(sent(wrongHost.handle(.streamOpened(other, streamId: "s"))).contains("<host-unknown "))
        var wrongNamespace = XMPPSession(domain: "localhost", applicationId: 3)
        other = header
        other.defaultNamespace = "jabber:server"
        let reply = sent(wrongNamespace.handle(.streamOpened(other, streamId: "s")))
        #expect(reply.hasPrefix("<?xml version='1.0'?><stream:stream ") && reply.contains("<invalid-namespace "))
    }

    @Test func handshakeReportedAfterDataIsHarmless() {
        var session = XMPPSession(domain: "localhost", applicationId: 3)
        _ = session.handle(.streamOpened(header, streamId: "s"))
        _ = session.handle(.element(element("starttls", XMPPNamespace.tls)))
        #expect(sent(session.handle(.streamOpened(header, streamId: "s2"))).contains("<mechanisms"))
        #expect(session.isSecure)
        #expect(session.handle(.tlsEstablished) == [])
        #expect(session.phase == .negotiating)
    }

    @Test func fatalBeforeAnyHeaderStillOpensTheStream() {
        var session = XMPPSession(domain: "localhost", applicationId: 3)
        let actions = session.handle(.fatal(.connectionTimeout))
        #expect(sent(actions).hasPrefix("<?xml version='1.0'?><stream:stream "))
        #expect(sent(actions).hasSuffix("<stream:error><connection-timeout xmlns='urn:ietf:params:xml:ns:xmpp-streams'/></stream:error></stream:stream>"))
        #expect(actions.last == .close)
    }

    @Test func carbonsFollowEnableAndDisable() {
        var session = XMPPSession(domain: "localhost", applicationId: 3)
        _ = session.handle(.streamOpened(header, streamId: "s1"))
        _ = session.handle(.element(auth("42-3", "pw")))
        _ = session.handle(.authenticationChecked(userId: 42, accepted: true))
        _ = session.handle(.streamOpened(header, streamId: "s2"))
        _ = session.handle(.element(element("iq", XMPPNamespace.client, ["type": "set", "id": "b"], [.element(element("bind", XMPPNamespace.bind))])))
        _ = session.handle(.resourceBound("r1", iqId: "b"))
        #expect(!session.carbonsEnabled)
        let enable = element("iq", XMPPNamespace.client, ["type": "set", "id": "c1"], [.element(element("enable", XMPPNamespace.carbons))])
        #expect(sent(session.handle(.element(enable))).contains("type='result' id='c1'"))
        #expect(session.carbonsEnabled)
        let disable = element("iq", XMPPNamespace.client, ["type": "set", "id": "c2"], [.element(element("disable", XMPPNamespace.carbons))])
        _ = session.handle(.element(disable))
        #expect(!session.carbonsEnabled)
    }

    /// A session authenticated as user 42 and waiting to bind (or resume).
    private func authenticated(resumable: Bool = true) -> XMPPSession {
        var session = XMPPSession(domain: "localhost", applicationId: 3, resumptionTimeout: 300,
                                  resumptionCandidate: resumable ? "abc123" : "")
        _ = session.handle(.streamOpened(header, streamId: "s1"))
        _ = session.handle(.element(auth("42-3", "pw")))
        _ = session.handle(.authenticationChecked(userId: 42, accepted: true))
        _ = session.handle(.streamOpened(header, streamId: "s2"))
        return session
    }

    private func bound(resumable: Bool = true) -> XMPPSession {
        var session = authenticated(resumable: resumable)
        _ = session.handle(.element(element("iq", XMPPNamespace.client, ["type": "set", "id": "b"], [.element(element("bind", XMPPNamespace.bind))])))
        _ = session.handle(.resourceBound("r1", iqId: "b"))
        return session
    }

    @Test func enableWithResumeOffersResumptionByTheSessionsId() {
        var session = bound()
        let actions = session.handle(.element(element("enable", XMPPNamespace.streamManagement, ["resume": "true"])))
        #expect(actions == [.send("<enabled xmlns='urn:xmpp:sm:3' id='abc123' resume='true' max='300'/>"), .resumptionEnabled(id: "abc123")])
        #expect(session.resumption == XMPPSession.Resumption(id: "abc123", resource: "r1", carbonsEnabled: false, inboundStanzas: 0))
        // Acks of what the server sent go to the connection's queue.
        #expect(session.handle(.element(element("a", XMPPNamespace.streamManagement, ["h": "4"]))) == [.acknowledged(4)])
        #expect(session.handle(.element(element("a", XMPPNamespace.streamManagement, ["h": "x"]))) == [])
    }

    @Test func enableWithoutResumeOrWithoutACandidateIsPlainStreamManagement() {
        var plain = bound()
        #expect(plain.handle(.element(element("enable", XMPPNamespace.streamManagement))) == [.send("<enabled xmlns='urn:xmpp:sm:3'/>")])
        #expect(plain.resumption == nil)
        #expect(plain.handle(.element(element("a", XMPPNamespace.streamManagement, ["h": "1"]))) == [])
        var unoffered = bound(resumable: false)
        #expect(unoffered.handle(.element(element("enable", XMPPNamespace.streamManagement, ["resume": "1"]))) == [.send("<enabled xmlns='urn:xmpp:sm:3'/>")])
    }

    @Test func resumeTakesOverTheOldSessionInsteadOfBinding() {
        var session = authenticated()
        let resume = element("resume", XMPPNamespace.streamManagement, ["previd": "old-id", "h": "7"])
        #expect(session.handle(.element(resume)) == [.resume(previd: "old-id", h: 7)])
        let previous = XMPPSession.Resumption(id: "old-id", resource: "phone", carbonsEnabled: true, inboundStanzas: 12)
        #expect(session.handle(.resumeChecked(previous, previd: "old-id")) == [.send("<resumed xmlns='urn:xmpp:sm:3' previd='old-id' h='12'/>")])
        #expect(session.phase == .established && session.fullJID == "42-3@localhost/phone")
        #expect(session.carbonsEnabled && session.streamManagementEnabled && session.resumptionId == "old-id")
        // Counting goes on from the old session's count.
        _ = session.handle(.element(element("presence", XMPPNamespace.client)))
        #expect(session.handle(.element(element("r", XMPPNamespace.streamManagement))) == [.send("<a xmlns='urn:xmpp:sm:3' h='13'/>")])
        #expect(session.resumption?.inboundStanzas == 13)
    }

    @Test func aResumptionThatFailsLeavesTheClientToBind() {
        var session = authenticated()
        _ = session.handle(.element(element("resume", XMPPNamespace.streamManagement, ["previd": "gone", "h": "0"])))
        #expect(session.handle(.resumeChecked(nil, previd: "gone")) == [.send("<failed xmlns='urn:xmpp:sm:3'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></failed>")])
        #expect(session.phase == .binding)
        let bind = element("iq", XMPPNamespace.client, ["type": "set", "id": "b"], [.element(element("bind", XMPPNamespace.bind))])
        #expect(session.handle(.element(bind)) == [.bindResource(requested: nil, iqId: "b")])
    }

    @Test func resumeOutOfPlaceOrMalformedFails() {
        var established = bound()
        #expect(sent(established.handle(.element(element("resume", XMPPNamespace.streamManagement, ["previd": "x", "h": "0"])))).contains("<unexpected-request"))
        var waiting = authenticated()
        #expect(sent(waiting.handle(.element(element("resume", XMPPNamespace.streamManagement, ["h": "0"])))).contains("<bad-request"))
        #expect(sent(waiting.handle(.element(element("resume", XMPPNamespace.streamManagement, ["previd": "x", "h": "-1"])))).contains("<bad-request"))
        #expect(waiting.phase == .binding)
    }
}
