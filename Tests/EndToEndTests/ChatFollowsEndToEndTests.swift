import Foundation
import Testing
import TestSupport

/// A chat view nobody scrolled follows the conversation
/// whatever arrives first (the server's older page, the cache, live messages, typing),
/// and shows what the same account sent from another terminal.
@Suite(.serialized) struct ChatFollowsEndToEndTests {
    typealias E = ChatEndToEndTests

    /// Alice and Bob open their views at the same moment; while Bob's starts, Bob sends from
    /// another terminal (over REST, so no carbon brings it) and Alice types. Bob's cache holds
    /// only his own message, so his view pages Alice's older ones in from the server while all
    /// this goes on. Repeated with fresh users: the start is a race.
    @Test(arguments: 1...4)
    func aViewStartedAmidTrafficStaysAtTheBottom(round: Int) throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        for n in 1...5 { #expect(try alice.run(["send", "@" + bob.login, "earlier \(n)"]).status == 0) }
        #expect(try bob.run(["send", "@" + alice.login, "hello"]).status == 0)

        let aliceTerminal = try TmuxSession(width: 80, height: 24, environment: E.environment(alice))
        let bobTerminal = try TmuxSession(width: 80, height: 24, environment: E.environment(bob))
        try aliceTerminal.type("chatctl chat @\(bob.login)")
        try bobTerminal.type("chatctl chat @\(alice.login)")
        try bobTerminal.press("Enter")
        try aliceTerminal.press("Enter")
        #expect(try bob.run(["send", "@" + alice.login, "from my other terminal \(round)"]).status == 0)
        try aliceTerminal.waitFor("connected")
        try aliceTerminal.type("next message from alice \(round)")
        try bobTerminal.waitFor("connected")
        // A person's next message comes in a later second than the burst above: history orders
        // messages of one second by id, which says nothing of time (docs/protocol.md §6).
        let typedIn = Int(Date().timeIntervalSince1970)
        try waitUntil("the next second", timeout: 3) { Int(Date().timeIntervalSince1970) > typedIn }
        try aliceTerminal.press("Enter")

        let screen: String
        do {
            screen = try bobTerminal.waitForScreen("both messages on Bob's screen") {
                $0.contains("next message from alice \(round)") && $0.contains("from my other terminal \(round)")
            }
        } catch {
            let outbox = (try? alice.run(["outbox", "--json"]).stdout) ?? ""
            let history = (try? alice.run(["history", "@" + bob.login, "--json"]).stdout) ?? ""
            throw TestSupportError("\(error)\nAlice's screen:\n\((try? aliceTerminal.screen()) ?? "")\nOUTBOX \(outbox)\nHISTORY \(history)")
        }
        #expect(!screen.contains("new"), "no '↓ 1 new' at the bottom:\n\(screen)")
        let rows = E.rows(screen)
        let own = try #require(rows.firstIndex { $0.contains("from my other terminal \(round)") })
        #expect(rows[own].hasSuffix("│") || rows[own].hasSuffix("│ "), "ours from elsewhere on the right: \(rows[own])")
        try aliceTerminal.press("Escape")
        try bobTerminal.press("Escape")
        try aliceTerminal.waitForPrompt()
        try bobTerminal.waitForPrompt()
    }
}
