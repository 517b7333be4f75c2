// The real chatctl-sandbox binary with its direct-TLS and WebSocket listeners: what its config
// line names, and that bad input on them is closed with a reason in the log (docs/protocol.md §1).
import Foundation
import Testing
import TestSupport

@Suite struct SandboxTransportsProcessTests {
    private func port(_ endpoint: Any?) throws -> Int {
        let text = try #require(endpoint as? String)
        return try #require(text.split(separator: ":").last.flatMap { Int($0) })
    }

    @Test func theConfigLineNamesTheExtraListenersOnlyWhenAskedFor() throws {
        let plain = try SandboxProcess()
        #expect(Set((plain.config["endpoints"] as? [String: Any] ?? [:]).keys) == ["api", "chat"])

        let sandbox = try SandboxProcess(arguments: ["--chat-tls-port", "0", "--ws-port", "0"])
        let endpoints = try #require(sandbox.config["endpoints"] as? [String: Any])
        #expect(Set(endpoints.keys) == ["api", "chat", "chatDirectTLS", "chatWebSocket"])
        #expect((endpoints["chat"] as? String)?.hasPrefix("xmpp://127.0.0.1:") == true, "chat stays the STARTTLS endpoint")
        #expect((endpoints["chatDirectTLS"] as? String)?.range(of: #"^xmpps://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil)
        #expect((endpoints["chatWebSocket"] as? String)?.range(of: #"^ws://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil)
        let ports = try ["chat", "chatDirectTLS", "chatWebSocket"].map { try port(endpoints[$0]) }
        #expect(Set(ports).count == 3)
        // Each answers as what it is named.
        let tls = try RawXMPPClient(port: ports[1])
        try tls.startTLS(caPEM: try String(contentsOfFile: try #require(sandbox.config["caFile"] as? String), encoding: .utf8), host: "localhost")
        tls.send(XMPPTestConstants.header)
        #expect(tls.read(untilContains: "</stream:features>"))
        #expect(try WebSocketTestClient(port: ports[2]).status == 101)
        #expect(sandbox.stop() == 0)
    }

    @Test func badInputOnTheNewListenersIsClosedWithAReasonInTheLog() throws {
        let sandbox = try SandboxProcess(arguments: ["--chat-tls-port", "0", "--ws-port", "0"])
        let endpoints = try #require(sandbox.config["endpoints"] as? [String: Any])
        let tlsPort = try port(endpoints["chatDirectTLS"]), wsPort = try port(endpoints["chatWebSocket"])

        let garbage = try WebSocketTestClient(port: wsPort)
        garbage.sendText("GET /index.html and other garbage")
        #expect(garbage.receiveUntilClose().close != nil)
        try sandbox.waitForLog(containing: "closed: stream error not-well-formed (bad input)", timeout: 10)

        let wrong = try WebSocketTestClient(port: wsPort, subprotocol: "chat, mqtt")
        #expect(wrong.status == 400)
        try sandbox.waitForLog(containing: "ws: refused a connection from 127.0.0.1: no 'xmpp' subprotocol (offered: chat, mqtt)", timeout: 10)

        let binary = try WebSocketTestClient(port: wsPort)
        binary.sendFrame(opcode: 0x2, payload: [0, 1, 2])
        #expect(binary.receiveUntilClose().close != nil)
        try sandbox.waitForLog(containing: "closed: binary frame", timeout: 10)

        let plainOnTLS = try RawXMPPClient(port: tlsPort)
        plainOnTLS.send(XMPPTestConstants.header)
        #expect(plainOnTLS.waitForClose())
        try sandbox.waitForLog(containing: "closed: TLS error:", timeout: 10)

        // Nobody else noticed: the sandbox still serves both.
        #expect(try WebSocketTestClient(port: wsPort).status == 101)
        #expect(sandbox.stop() == 0, "stderr: \(sandbox.stderr)")
    }
}
