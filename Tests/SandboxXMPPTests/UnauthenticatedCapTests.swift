// The cap on connections not yet logged in, per address (docs/protocol.md §7): past it the
// oldest of them is closed, never the newcomer (on loopback every client shares one
// address, so a flood must not lock out the next client); one that logged in or left no
// longer counts.
import Foundation
import Testing
import TestSupport
@testable import SandboxXMPP

@Suite(.serialized) struct UnauthenticatedCapTests {
    typealias C = XMPPTestConstants

    /// Whether the server answers a new stream on `client`.
    static func answers(_ client: RawXMPPClient) -> Bool {
        client.send(C.header)
        return client.read(untilContains: "</stream:features>")
    }

    @Test func aNewcomerPastTheCapClosesTheOldestUnauthenticatedStream() throws {
        var limits = XMPPServer.Limits()
        limits.maxUnauthenticatedPerAddress = 3
        let server = try XMPPTestServer(limits: limits)
        var waiting = try (0..<3).map { _ in try RawXMPPClient(port: server.port) }
        for client in waiting { #expect(Self.answers(client)) }
        let newcomer = try RawXMPPClient(port: server.port)
        #expect(Self.answers(newcomer), "the newcomer is served")
        let oldest = waiting.removeFirst()
        #expect(oldest.waitForClose(timeout: 5), "the oldest makes room")
        #expect(oldest.received.contains("policy-violation"))
        waiting.append(newcomer)

        // All three log in: they no longer count, and a flood after them never closes them.
        for client in waiting {
            client.send(C.plain("5-\(C.applicationId)", "secret-5"))
            #expect(client.read(untilContains: "<success"))
        }
        let flood = try (0..<10).map { _ in try RawXMPPClient(port: server.port) }
        let last = try #require(flood.last)
        #expect(Self.answers(last))
        for client in flood.prefix(7) { #expect(client.waitForClose(timeout: 5)) }
        try waitUntil("three logged in and three of the flood left", timeout: 5) { server.query { $0.openConnectionCount } == 6 }
        for client in waiting {
            client.clear()
            client.send(C.header)
            #expect(client.read(untilContains: "<stream:features"), "a logged-in stream is still served")
        }
    }
}

/// The WebSocket port caps its connections not upgraded yet the same way.
@Suite(.serialized) struct WebSocketUpgradeCapTests {
    @Test func aNewcomerPastTheCapShutsTheOldestWaitingConnection() throws {
        var limits = XMPPServer.Limits()
        limits.maxUnauthenticatedPerAddress = 3
        let server = try XMPPTestServer(limits: limits, webSockets: true)
        var halfOpen: [TCPConnection] = []
        for _ in 0..<4 {
            let connection = try TCPConnection(host: "127.0.0.1", port: server.webSocketPort)
            connection.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            halfOpen.append(connection)
        }
        #expect(halfOpen[0].readUntilClosed(timeout: 5).closedByPeer, "the oldest makes room")
        let client = try WebSocketTestClient(port: server.webSocketPort)
        #expect(client.status == 101, "a newcomer still upgrades")
        try waitUntil("its stream", timeout: 5) { server.query { $0.openConnectionCount } == 1 }
        #expect(halfOpen[1].readUntilClosed(timeout: 5).closedByPeer, "and the next oldest made room for it")
        #expect(!halfOpen[3].isClosedByPeer())
    }
}
