// The cap on connections not yet logged in, per address (docs/protocol.md §7), is counted as
// connections come, log in and go: one that logged in or left no longer counts.
import Foundation
import Testing
import TestSupport
@testable import SandboxXMPP

@Suite(.serialized) struct UnauthenticatedCapTests {
    typealias C = XMPPTestConstants

    /// Whether the server answers a new stream on `client` (a refused connection is closed unread).
    static func answers(_ client: RawXMPPClient) -> Bool {
        client.send(C.header)
        return client.read(untilContains: "</stream:features>")
    }

    @Test func connectionsThatLoggedInOrLeftNoLongerCountAgainstTheCap() throws {
        var limits = XMPPServer.Limits()
        limits.maxUnauthenticatedPerAddress = 3
        let server = try XMPPTestServer(limits: limits)
        var waiting = try (0..<3).map { _ in try RawXMPPClient(port: server.port) }
        for client in waiting { #expect(Self.answers(client)) }
        let refused = try RawXMPPClient(port: server.port)
        #expect(refused.waitForClose(timeout: 5), "a fourth is closed at once")

        // One leaves: a newcomer is let in.
        waiting.removeFirst()
        try waitUntil("the server to notice it left", timeout: 5) { server.query { $0.openConnectionCount } == 2 }
        let newcomer = try RawXMPPClient(port: server.port)
        #expect(Self.answers(newcomer))
        waiting.append(newcomer)

        // All three log in: three more may wait.
        for client in waiting {
            client.send(C.plain("5-\(C.applicationId)", "secret-5"))
            #expect(client.read(untilContains: "<success"))
        }
        let more = try (0..<3).map { _ in try RawXMPPClient(port: server.port) }
        for client in more { #expect(Self.answers(client)) }
        let over = try RawXMPPClient(port: server.port)
        #expect(over.waitForClose(timeout: 5))
    }
}
