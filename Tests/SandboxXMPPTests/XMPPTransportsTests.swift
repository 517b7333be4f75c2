// The sandbox's other ways in (docs/protocol.md §1, §7): TLS from the first byte, and XMPP
// over WebSocket (RFC 7395), both on the same sessions and router as the STARTTLS port.
import Foundation
import Testing
import TestSupport
import SandboxWebSocket
@testable import SandboxXMPP

@Suite("XMPPServer over direct TLS and WebSocket", .serialized)
struct XMPPTransportsTests {
    typealias C = XMPPTestConstants
    static let framing = "urn:ietf:params:xml:ns:xmpp-framing"

    private func streamError(_ condition: String) -> String {
        "<\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"
    }

    // MARK: direct TLS

    @Test func directTLSFromTheFirstByteOffersNoStartTLSAndBinds() throws {
        let server = try XMPPTestServer(directTLS: true)
        let client = try RawXMPPClient(port: server.directTLSPort)
        try client.startTLS(caPEM: server.certificatePEM, host: "localhost")
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        #expect(!client.received.contains("starttls"))
        #expect(client.received.contains("<mechanism>PLAIN</mechanism>"))
        client.send(C.plain("5-7", "secret-5"))
        #expect(client.read(untilContains: "<success"))
        client.clear()
        client.send(C.header)
        #expect(client.read(untilContains: "</stream:features>"))
        client.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>tls</resource></bind></iq>")
        #expect(client.read(untilContains: "<jid>5-7@localhost/tls</jid>"))
        // The same sessions as the STARTTLS port: binding there replaces this one.
        #expect(server.query { $0.boundSessions[5]?["tls"] != nil })
    }

    @Test func plainXMLOnTheTLSPortGetsNothingInClearAndOthersCarryOn() throws {
        let server = try XMPPTestServer(directTLS: true)
        let plain = try RawXMPPClient(port: server.directTLSPort)
        plain.send(C.header)
        #expect(plain.waitForClose())
        #expect(!plain.received.contains("<stream"), "nothing may be said before the handshake: \(plain.received)")
        let next = try RawXMPPClient(port: server.directTLSPort)
        try next.startTLS(caPEM: server.certificatePEM, host: "localhost")
        next.send(C.header)
        #expect(next.read(untilContains: "<mechanism>PLAIN</mechanism>"))
    }

    @Test func aTLSHandshakeThatNeverFinishesIsHungUpOnAtThePreAuthTimeout() throws {
        var limits = XMPPServer.Limits()
        limits.preAuthTimeout = 0.5
        let server = try XMPPTestServer(limits: limits, directTLS: true)
        let silent = try RawXMPPClient(port: server.directTLSPort)
        let halfway = try RawXMPPClient(port: server.directTLSPort)
        halfway.send("\u{16}\u{03}\u{01}\u{02}")  // the start of a ClientHello record, never finished
        let started = Date()
        #expect(silent.waitForClose(timeout: 5))
        #expect(halfway.waitForClose(timeout: 5))
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(server.query { $0.openConnectionCount } == 0)
    }

    // MARK: WebSocket

    /// A WebSocket stream through SASL and binding; returns the client and its full JID.
    private func webSocketSession(_ server: XMPPTestServer, user: String, secret: String, resource: String) throws -> WebSocketTestClient {
        let client = try WebSocketTestClient(port: server.webSocketPort)
        guard client.status == 101 else { throw TestFailure("upgrade answered \(client.status)") }
        client.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        guard client.receiveTexts(until: { $0.hasPrefix("<stream:features") }).matched else { throw TestFailure("no features") }
        let plain = Data("\0\(user)\0\(secret)".utf8).base64EncodedString()
        client.sendText("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>\(plain)</auth>")
        guard client.receiveTexts(until: { $0.hasPrefix("<success") }).matched else { throw TestFailure("no success") }
        client.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        guard client.receiveTexts(until: { $0.hasPrefix("<stream:features") }).matched else { throw TestFailure("no features after SASL") }
        client.sendText("<iq xmlns='jabber:client' type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>\(resource)</resource></bind></iq>")
        guard client.receiveTexts(until: { $0.contains("</jid>") }).matched else { throw TestFailure("no bind result") }
        return client
    }

    @Test func aWebSocketStreamSpeaksRFC7395Framing() throws {
        let server = try XMPPTestServer(webSockets: true)
        let client = try WebSocketTestClient(port: server.webSocketPort)
        #expect(client.status == 101)
        #expect(client.headers["sec-websocket-protocol"] == "xmpp")
        client.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        let (opening, _) = client.receiveTexts(until: { $0.hasPrefix("<stream:features") })
        #expect(opening.count == 2, "the <open/> and the features, one message each: \(opening)")
        #expect(opening.first?.hasPrefix("<open xmlns='\(Self.framing)' id='") == true)
        #expect(opening.first?.contains("from='localhost' version='1.0'") == true)
        #expect(opening.last?.hasPrefix("<stream:features xmlns:stream='http://etherx.jabber.org/streams'>") == true)
        #expect(opening.last.map { !$0.contains("starttls") } == true, "TLS is the WebSocket's business, never STARTTLS")

        let plain = Data("\05-7\0token-5".utf8).base64EncodedString()
        client.sendText("<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>\(plain)</auth>")
        #expect(client.receiveTexts(until: { $0 == "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>" }).matched)
        client.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        let (restart, _) = client.receiveTexts(until: { $0.hasPrefix("<stream:features") })
        #expect(restart.last?.contains("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>") == true)
        client.sendText("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
        let (bound, _) = client.receiveTexts(until: { $0.contains("</jid>") })
        #expect(bound.last?.hasPrefix("<iq xmlns='jabber:client' type='result' id='b'>") == true)

        // Stream management and pings are the TCP ones.
        client.sendText("<enable xmlns='urn:xmpp:sm:3'/>")
        #expect(client.receiveTexts(until: { $0 == "<enabled xmlns='urn:xmpp:sm:3'/>" }).matched)
        client.sendText("<iq xmlns='jabber:client' type='get' id='p1'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(client.receiveTexts(until: { $0.contains("id='p1'") && $0.contains("type='result'") }).matched)
        client.sendText("<r xmlns='urn:xmpp:sm:3'/>")
        #expect(client.receiveTexts(until: { $0 == "<a xmlns='urn:xmpp:sm:3' h='1'/>" }).matched)

        client.sendText("<close xmlns='\(Self.framing)'/>")
        let (goodbye, close) = client.receiveUntilClose()
        #expect(goodbye == [WebSocketFraming.closeReply], "not Strophe.js's own spelling, which it ignores while it disconnects")
        #expect(close == .close(code: 1000, reason: "stream closed"))
        try waitUntil("the server forgets the WebSocket", timeout: 5) { server.query { $0.openConnectionCount == 0 && $0.boundSessions.isEmpty } }
    }

    @Test func aWebSocketUserAndATCPUserChatThroughOneRouter() throws {
        let fixture = try MessagingFixture(webSockets: true)
        let alice = try fixture.user("wsalice"), bob = try fixture.user("tcpbob")
        let web = try webSocketSession(fixture.server, user: "\(alice)-\(C.applicationId)", secret: "password-wsalice", resource: "web")
        let tcp = try fixture.connect(bob, "tcpbob", resource: "term")

        web.sendText("<message xmlns='jabber:client' to='\(fixture.jid(bob))' type='chat' id='6b0db884edb3b3d9cddf1330'><body>from the web</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        #expect(tcp.read(untilContains: "from the web</body>"))
        #expect(tcp.received.contains("from='\(fixture.jid(alice))/web'"))
        #expect(try fixture.message("6b0db884edb3b3d9cddf1330")?.body == "from the web")

        tcp.send("<message to='\(fixture.jid(alice))' type='chat' id='6b0db884edb3b3d9cddf1331'><body>from the terminal</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history></extraParams></message>")
        let (texts, matched) = web.receiveTexts(until: { $0.contains("from the terminal") })
        #expect(matched)
        let delivered = texts.last ?? ""
        #expect(delivered.hasPrefix("<message xmlns='jabber:client' "), "one whole, namespaced stanza per message: \(delivered)")
        #expect(delivered.hasSuffix("</message>"))
        #expect(delivered.contains("<dialog_id>"))
    }

    @Test(arguments: [
        ("hello there", "not-well-formed"),
        ("<message><body>half", "not-well-formed"),
        ("<iq type='get'", "not-well-formed"),
        ("<message to='6-7@localhost'><body>before open</body></message>", "policy-violation"),
    ])
    func badWebSocketInputEndsOnlyThatStream(message: String, condition: String) throws {
        let server = try XMPPTestServer(webSockets: true)
        let bystander = try webSocketSession(server, user: "6-7", secret: "secret-6", resource: "calm")
        let client = try WebSocketTestClient(port: server.webSocketPort)
        if condition != "policy-violation" {
            client.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
            #expect(client.receiveTexts(until: { $0.hasPrefix("<stream:features") }).matched)
        }
        client.sendText(message)
        let (texts, close) = client.receiveUntilClose()
        #expect(texts.contains { $0.contains(streamError(condition)) }, "\(texts)")
        #expect(texts.last == WebSocketFraming.closeMessage)
        #expect(close == .close(code: 1000, reason: "stream error \(condition)\(condition == "not-well-formed" ? " (bad input)" : "")"))
        // The other stream never noticed.
        bystander.sendText("<iq xmlns='jabber:client' type='get' id='still'><ping xmlns='urn:xmpp:ping'/></iq>")
        #expect(bystander.receiveTexts(until: { $0.contains("id='still'") }).matched)
        try waitUntil("only the bystander left", timeout: 5) { server.query { $0.openConnectionCount == 1 } }
    }

    @Test func binaryFramesAndOversizeMessagesAreRefused() throws {
        var limits = XMPPServer.Limits()
        limits.maxElementBytes = 4096
        let server = try XMPPTestServer(limits: limits, webSockets: true)
        let binary = try WebSocketTestClient(port: server.webSocketPort)
        binary.sendFrame(opcode: 0x2, payload: Array("<open/>".utf8))
        let (_, binaryClose) = binary.receiveUntilClose()
        guard case .close(let code, let reason)? = binaryClose else { Issue.record("no close frame"); return }
        #expect(code == 1003)
        #expect(reason.contains("binary frame"))

        let large = try WebSocketTestClient(port: server.webSocketPort)
        large.sendText("<open xmlns='\(Self.framing)' to='localhost' version='1.0'/>")
        #expect(large.receiveTexts(until: { $0.hasPrefix("<stream:features") }).matched)
        // In fragments, as browsers send big messages.
        large.sendFrame(opcode: 0x1, payload: Array("<message><body>".utf8), final: false)
        large.sendFrame(opcode: 0x0, payload: Array(String(repeating: "x", count: 8000).utf8), final: false)
        large.sendFrame(opcode: 0x0, payload: Array("</body></message>".utf8))
        let (texts, close) = large.receiveUntilClose()
        #expect(texts.contains { $0.contains(streamError("policy-violation")) }, "\(texts)")
        #expect(close != nil)
        try waitUntil("both gone", timeout: 5) { server.query { $0.openConnectionCount == 0 } }
    }

    @Test func upgradesWithoutTheXMPPSubprotocolAndPlainHTTPGetA400() throws {
        let server = try XMPPTestServer(webSockets: true)
        for subprotocol in ["chat", nil] as [String?] {
            let refused = try WebSocketTestClient(port: server.webSocketPort, subprotocol: subprotocol)
            #expect(refused.status == 400, "subprotocol \(subprotocol ?? "none")")
        }
        let (data, _) = try rawTCPExchange(host: "127.0.0.1", port: server.webSocketPort,
                                           bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), timeout: 10)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        let accepted = try WebSocketTestClient(port: server.webSocketPort)
        #expect(accepted.status == 101)
        try waitUntil("one WebSocket stream", timeout: 5) { server.query { $0.openConnectionCount } == 1 }
    }

    @Test func aSilentConnectionOnTheWebSocketPortIsDropped() throws {
        var limits = XMPPServer.Limits()
        limits.webSocketUpgradeTimeout = 1
        let server = try XMPPTestServer(limits: limits, webSockets: true)
        let silent = try TCPConnection(host: "127.0.0.1", port: server.webSocketPort)
        let started = Date()
        #expect(silent.readUntilClosed(timeout: 8).closedByPeer)
        #expect(Date().timeIntervalSince(started) < 6)
    }

    @Test func stopSaysSystemShutdownOverWebSocketToo() throws {
        let server = try XMPPTestServer(webSockets: true)
        let client = try webSocketSession(server, user: "5-7", secret: "secret-5", resource: "bye")
        server.stop()
        let (texts, close) = client.receiveUntilClose()
        #expect(texts.contains { $0.contains(streamError("system-shutdown")) }, "\(texts)")
        #expect(close != nil)
    }
}
