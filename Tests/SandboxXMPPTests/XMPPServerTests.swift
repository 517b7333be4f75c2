import Foundation
import Testing
@testable import SandboxXMPP

/// The XMPP listener over real sockets: an in-process server on its own loop thread.
@Suite("XMPPServer over TCP", .serialized)
struct XMPPServerTests {
    typealias C = XMPPTestConstants

    private func streamError(_ condition: String) -> String {
        "<\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"
    }

    /// Opens a stream, authenticates as user 5 and restarts: the post-auth features are read.
    private func authenticated(_ server: XMPPTestServer, authcid: String = "5-7", secret: String = "secret-5") throws -> RawXMPPClient {
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send(C.plain(authcid, secret))
        #expect(client.read(untilContains: "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"))
        client.clear()
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        #expect(client.received.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>"))
        #expect(client.received.contains("<sm xmlns='urn:xmpp:sm:3'/>"))
        return client
    }

    private func bound(_ server: XMPPTestServer, resource: String? = nil) throws -> RawXMPPClient {
        let client = try authenticated(server)
        let resourceElement = resource.map { "<resource>\($0)</resource>" } ?? ""
        client.send("<iq type='set' id='b1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>\(resourceElement)</bind></iq>")
        #expect(client.read(untilContains: "</iq>"))
        client.clear()
        return client
    }

    @Test func plainStreamOffersStartTLSAndPlain() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        #expect(client.received.contains("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'"))
        #expect(client.received.contains("from='localhost'"))
        #expect(client.received.contains("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"))
        #expect(client.received.contains("<mechanism>PLAIN</mechanism>"))
        #expect(!client.received.contains("<bind"))
    }

    @Test(arguments: [("5-7", "secret-5"), ("5-7@localhost", "secret-5"), ("5-7", "token-5"), ("5-7@LOCALHOST", "token-5")])
    func saslPlainAcceptsPasswordOrTokenAndBothAuthcidForms(authcid: String, secret: String) throws {
        let server = try XMPPTestServer()
        _ = try authenticated(server, authcid: authcid, secret: secret)
    }

    @Test(arguments: [("5-7", "wrong"), ("6-7", "secret-5"), ("5-8", "secret-5"), ("5-7@example.com", "secret-5"), ("5", "secret-5"), ("99-7", "x")])
    func saslPlainRejectsBadCredentials(authcid: String, secret: String) throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send(C.plain(authcid, secret))
        #expect(client.read(untilContains: "</failure>"))
        #expect(client.received.contains("<failure xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/></failure>"))
        #expect(!client.received.contains("<success"))
        // Still negotiating: a correct retry succeeds on the same stream.
        client.send(C.plain("5-7", "secret-5"))
        #expect(client.read(untilContains: "<success"))
    }

    /// go-sendxmpp ends `<auth>` with a newline; the restarted stream must not choke on it.
    @Test func whitespaceAfterAuthDoesNotBreakTheRestartedStream() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header + "\n")
        #expect(client.read(untilContains: "</stream:features>"))
        client.send(C.plain("5-7", "secret-5") + "\n")
        #expect(client.read(untilContains: "<success"))
        client.clear()
        client.send("\n" + C.header + "\n")
        #expect(client.read(untilContains: "</stream:features>"))
        #expect(client.received.hasPrefix("<?xml version='1.0'?><stream:stream "))
        #expect(client.received.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>"))
    }

    @Test func repeatedSASLFailuresEndTheStream() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        for _ in 0..<3 { client.send(C.plain("5-7", "nope")) }
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("not-authorized")))
    }

    @Test func bindGeneratesOrKeepsResourceAndAnswersIQs() throws {
        let server = try XMPPTestServer()
        let client = try authenticated(server)
        client.send("<iq type='set' id='b1'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
        #expect(client.read(untilContains: "</iq>"))
        let jid = try #require(client.received.firstMatch(of: /<jid>([^<]+)<\/jid>/)?.1)
        #expect(jid.hasPrefix("5-7@localhost/"))
        #expect(jid.count > "5-7@localhost/".count)
        #expect(client.received.contains("id='b1'"))
        #expect(server.query { $0.boundSessions[5]?.count } == 1)

        let second = try authenticated(server)
        second.send("<iq type='set' id='b2'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>phone</resource></bind></iq>")
        #expect(second.read(untilContains: "<jid>5-7@localhost/phone</jid>"))
        #expect(server.query { $0.boundSessions[5].map { $0.keys.sorted() } ?? [] }.contains("phone"))

        client.clear()
        client.send("<iq type='set' id='s1'><session xmlns='urn:ietf:params:xml:ns:xmpp-session'/></iq>")
        #expect(client.read(untilContains: "id='s1'"))
        #expect(client.received.contains("type='result'"))
        client.clear()
        client.send("<iq type='get' id='p1' to='localhost'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(client.read(untilContains: "/>"))
        #expect(client.received.contains("<iq type='result' id='p1'"))
        client.clear()
        client.send("<iq type='get' id='r1'><query xmlns='jabber:iq:roster'/></iq>")
        #expect(client.read(untilContains: "</iq>"))
        #expect(client.received.contains("id='r1'") && client.received.contains("<query xmlns='jabber:iq:roster'/>"))
        client.clear()
        client.send("<iq type='set' id='c1'><enable xmlns='urn:xmpp:carbons:2'/></iq>")
        #expect(client.read(untilContains: "id='c1'"))
        #expect(client.received.contains("type='result'"))
        client.clear()
        client.send("<iq type='get' id='d1' to='localhost'><query xmlns='http://jabber.org/protocol/disco#info'/></iq>")
        #expect(client.read(untilContains: "</iq>"))
        #expect(client.received.contains("<identity category='server' type='im'"))
        #expect(client.received.contains("<feature var='urn:xmpp:ping'/>"))
        client.clear()
        client.send("<iq type='get' id='v1'><query xmlns='jabber:iq:version'/></iq>")
        #expect(client.read(untilContains: "</iq>"))
        #expect(client.received.contains("<iq type='error' id='v1'"))
        #expect(client.received.contains("<service-unavailable xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/>"))
        client.clear()
        // Initial presence is accepted silently; the stream stays open.
        client.send("<presence/><iq type='get' id='p2'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(client.read(untilContains: "id='p2'"))
        #expect(!client.received.contains("stream:error"))
    }

    @Test func bindingTheSameResourceTwiceReplacesTheOldSession() throws {
        let server = try XMPPTestServer()
        let first = try bound(server, resource: "desk")
        let second = try bound(server, resource: "desk")
        #expect(first.waitForClose())
        #expect(first.received.contains(streamError("conflict")))
        second.send("<iq type='get' id='p'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(second.read(untilContains: "id='p'"))
        #expect(server.query { $0.boundSessions[5]?["desk"] != nil })
    }

    @Test func streamManagementCountsInboundStanzas() throws {
        let server = try XMPPTestServer()
        let client = try bound(server)
        client.send("<enable xmlns='urn:xmpp:sm:3'/>")
        #expect(client.read(untilContains: "<enabled xmlns='urn:xmpp:sm:3'/>"))
        client.send("<r xmlns='urn:xmpp:sm:3'/>")
        #expect(client.read(untilContains: "<a xmlns='urn:xmpp:sm:3' h='0'/>"))
        client.send("<presence/>")
        client.send("<message to='6-7@localhost' type='chat' id='m1'><body>hi</body></message>")
        client.send("<iq type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>")
        client.send("<a xmlns='urn:xmpp:sm:3' h='0'/>")  // a nonza: not counted
        client.send("<r xmlns='urn:xmpp:sm:3'/>")
        #expect(client.read(untilContains: "<a xmlns='urn:xmpp:sm:3' h='3'/>"))
    }

    @Test func streamManagementBeforeBindIsRefused() throws {
        let server = try XMPPTestServer()
        let client = try authenticated(server)
        client.clear()
        client.send("<enable xmlns='urn:xmpp:sm:3'/>")
        #expect(client.read(untilContains: "</failed>"))
        #expect(client.received.contains("<unexpected-request"))
    }

    @Test(arguments: [
        ("<message><body>unclosed</message>", "not-well-formed"),
        ("<message a='1' a='2'/>", "not-well-formed"),
        ("<message>&undefined;</message>", "not-well-formed"),
        ("hello", "not-well-formed"),
        ("<!-- a comment -->", "restricted-xml"),
        ("<?pi data?>", "restricted-xml"),
        ("<foo xmlns='urn:example'/>", "unsupported-stanza-type"),
        ("<message to='6-7@localhost'><body>early</body></message>", "not-authorized"),
    ])
    func hostileOrEarlyInputEndsTheStream(payload: String, condition: String) throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send(payload)
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError(condition)))
        #expect(client.received.hasSuffix("</stream:stream>"))
        // The server keeps serving others.
        let next = try RawXMPPClient(port: server.port)
        next.send(C.header)
        #expect(next.read(untilContains: "</stream:features>"))
    }

    @Test func doctypeAndEntitiesAreRefusedNotExpanded() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send("<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'><!ENTITY lol2 '&lol;&lol;&lol;&lol;'>]>"
                    + "<stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>&lol2;")
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("restricted-xml")))
        #expect(!client.received.contains("lollol"))
        #expect(!client.received.contains("<stream:features>"))
    }

    @Test func wrongNamespaceOrHostIsAStreamError() throws {
        let server = try XMPPTestServer()
        let wrongNamespace = try RawXMPPClient(port: server.port)
        wrongNamespace.send("<stream:stream to='localhost' xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")
        #expect(wrongNamespace.waitForClose())
        #expect(wrongNamespace.received.contains("<stream:stream "))
        #expect(wrongNamespace.received.contains(streamError("invalid-namespace")))

        let notAStream = try RawXMPPClient(port: server.port)
        notAStream.send("<stream xmlns='jabber:client'>")
        #expect(notAStream.waitForClose())
        #expect(notAStream.received.contains(streamError("invalid-namespace")))

        let wrongHost = try RawXMPPClient(port: server.port)
        wrongHost.send("<stream:stream to='example.com' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>")
        #expect(wrongHost.waitForClose())
        #expect(wrongHost.received.contains(streamError("host-unknown")))
    }

    @Test func oversizeStanzaIsAPolicyViolation() throws {
        let server = try XMPPTestServer()
        let limit = XMPPServer.Limits().maxElementBytes
        let client = try bound(server)
        client.send("<message to='6-7@localhost'><body>" + String(repeating: "a", count: limit + 6 * 1024) + "</body></message>")
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("policy-violation")))
        // A stanza just under the limit is fine.
        let ok = try bound(server)
        ok.send("<message to='6-7@localhost'><body>" + String(repeating: "b", count: limit - 4 * 1024) + "</body></message><iq type='get' id='after'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(ok.read(untilContains: "id='after'"))
    }

    @Test func hugeUnterminatedTagIsAPolicyViolation() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send("<message a='" + String(repeating: "x", count: XMPPServer.Limits().maxElementBytes + 36 * 1024))
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("policy-violation")))
    }

    @Test func absurdNestingIsAPolicyViolation() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send(String(repeating: "<a>", count: 10_000))
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("policy-violation")))
    }

    @Test func silentClientTimesOutAndTheServerStillServes() throws {
        var limits = XMPPServer.Limits()
        limits.preAuthTimeout = 0.5
        let server = try XMPPTestServer(limits: limits)
        let silent = try RawXMPPClient(port: server.port)
        let started = Date()
        #expect(silent.waitForClose(timeout: 5))
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(silent.received.contains(streamError("connection-timeout")))
        // Half-way (stream opened, never authenticated) times out too.
        let halfway = try RawXMPPClient(port: server.port)
        halfway.send(C.header)
        #expect(halfway.waitForClose(timeout: 5))
        #expect(halfway.received.contains(streamError("connection-timeout")))
        #expect(server.query { $0.openConnectionCount } == 0)

        let next = try RawXMPPClient(port: server.port)
        next.send(C.header)
        #expect(next.read(untilContains: "<mechanism>PLAIN</mechanism>"))
    }

    @Test func abruptAndBogusClientsLeaveNothingBehind() throws {
        let server = try XMPPTestServer()
        do {
            _ = try RawXMPPClient(port: server.port)  // connects and vanishes
            let partial = try RawXMPPClient(port: server.port)
            partial.send("<stream:stream xmlns='jabber:cl")
            let notTLS = try RawXMPPClient(port: server.port)
            notTLS.send(C.header + "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
            #expect(notTLS.read(untilContains: "<proceed"))
            notTLS.send(String(repeating: "this is not a TLS ClientHello\r\n", count: 20))
            #expect(notTLS.waitForClose())
            let midStanza = try bound(server)
            midStanza.send("<message to='6-7@localhost'><body>half")
        }
        // Every socket above is closed now; the server notices and forgets them all.
        let deadline = Date().addingTimeInterval(5)
        while server.query({ $0.openConnectionCount }) > 0 && Date() < deadline { usleep(20_000) }
        #expect(server.query { $0.openConnectionCount } == 0)
        #expect(server.query { $0.boundSessions.isEmpty })
        let next = try bound(server)
        next.send("<iq type='get' id='alive'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(next.read(untilContains: "id='alive'"))
    }

    @Test func closingTheStreamClosesTheConnection() throws {
        let server = try XMPPTestServer()
        let client = try bound(server)
        client.send("</stream:stream>")
        #expect(client.waitForClose())
        #expect(client.received.hasSuffix("</stream:stream>"))
        #expect(server.query { $0.boundSessions.isEmpty && $0.openConnectionCount == 0 })
    }

    @Test func stopSendsSystemShutdown() throws {
        let server = try XMPPTestServer()
        let client = try bound(server)
        let port = server.port
        server.stop()
        #expect(client.waitForClose())
        #expect(client.received.contains(streamError("system-shutdown")))
        #expect(throws: (any Error).self) { try RawXMPPClient(port: port) }
    }

    /// A client past STARTTLS, with the secured stream's features read.
    private func securedStream(_ server: XMPPTestServer) throws -> RawXMPPClient {
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header + "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        #expect(client.read(untilContains: "<proceed"))
        client.clear()
        try client.startTLS(caPEM: server.certificatePEM, host: "localhost")
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        return client
    }

    /// The sandbox leaves its loop right after `stop()`: the goodbye must already be on the wire.
    @Test func stopDeliversSystemShutdownEvenIfTheLoopEndsAtOnce() throws {
        let server = try XMPPTestServer(loopAfterStop: false)
        let plain = try bound(server)
        let secure = try securedStream(server)
        server.stop()
        #expect(plain.waitForClose())
        #expect(plain.received.contains(streamError("system-shutdown")))
        #expect(secure.waitForClose())
        #expect(secure.received.contains(streamError("system-shutdown")))
    }

    @Test func startTLSThenAuthenticateOverTLS() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        #expect(client.read(untilContains: "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"))
        client.clear()
        // Verifies the self-signed certificate against its PEM and the SAN "localhost".
        try client.startTLS(caPEM: server.certificatePEM, host: "localhost")
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        #expect(!client.received.contains("starttls"))
        #expect(client.received.contains("<mechanism>PLAIN</mechanism>"))
        client.send(C.plain("6-7", "secret-6"))
        #expect(client.read(untilContains: "<success"))
        client.clear()
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>tls</resource></bind></iq>")
        #expect(client.read(untilContains: "<jid>6-7@localhost/tls</jid>"))
    }

    /// After its `</stream:stream>` a TLS stream gets TLS's close_notify too, so a client that
    /// waits for it (libstrophe does) is not kept waiting for the socket to close.
    @Test func closingATLSStreamEndsTLSWithCloseNotify() throws {
        let server = try XMPPTestServer()
        let client = try securedStream(server)
        client.send("</stream:stream>")
        #expect(client.waitForClose())
        #expect(client.received.hasSuffix("</stream:stream>"))
        #expect(client.tlsCloseNotified, "the stream's end, then close_notify")
    }

    @Test func certificateDoesNotVerifyForAnotherName() throws {
        let server = try XMPPTestServer()
        let client = try RawXMPPClient(port: server.port)
        client.send(C.header + "<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        #expect(client.read(untilContains: "<proceed"))
        #expect(throws: TestFailure.self) { try client.startTLS(caPEM: server.certificatePEM, host: "example.org") }
    }
}
