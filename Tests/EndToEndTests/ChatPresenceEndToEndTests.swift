import Foundation
import Testing
import TestSupport

/// Presence in `chatctl chat` (docs/protocol.md §7, "Presence and last activity"): the header
/// follows another user coming online and leaving, a group's header counts who is online,
/// the dialog list marks an online peer. Real chatctl, real sandbox, tmux.
@Suite(.serialized) struct ChatPresenceEndToEndTests {
    @Test func thePrivateHeaderFollowsThePeerComingAndGoing() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        // Over REST: Bob has never been on chat.
        #expect(try alice.run(["dialogs", "create", "--private", "@" + bob.login]).status == 0)

        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        try terminal.waitFor(" \(bob.login) · private · offline · connected")

        // Bob listens for one message, then leaves as chatctl does, closing his stream. (A
        // process killed leaves a session the server keeps for resumption: online a while yet.)
        let listener = try bob.cli.background(["listen", "--count", "1", "--timeout", "120s"])
        try listener.waitUntilListening()
        try terminal.waitFor(" \(bob.login) · private · online · connected")

        // The dialog list of another chat of Alice's marks him.
        let list = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try list.startChatctl("chat", waitingFor: bob.login)
        try list.waitFor("●\(bob.login)")

        try terminal.type("see you")
        try terminal.press("Enter")
        #expect(listener.finish(timeout: 30).status == 0)
        try terminal.waitFor(" \(bob.login) · private · last seen just now · connected")
        try list.waitForScreen("the mark gone") { !$0.contains("●") }

        try terminal.press("Escape")
        try terminal.waitForPrompt()
        try list.press("q")
        try list.waitForPrompt()
    }

    @Test func aGroupsHeaderCountsWhoIsOnline() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        let name = uniqueLogin("ops")
        #expect(try alice.run(["dialogs", "create", "--group", name, "--with", "@\(bob.login),@\(carol.login)"]).status == 0)

        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat \(name)")
        try terminal.waitFor(" \(name) · group · 3 members · 1 online · connected")

        let listener = try bob.cli.background(["listen", "--count", "1", "--timeout", "120s"])
        try listener.waitUntilListening()
        try terminal.waitFor(" \(name) · group · 3 members · 2 online · connected")

        try terminal.type("standup?")
        try terminal.press("Enter")
        #expect(listener.finish(timeout: 30).status == 0)
        try terminal.waitFor(" \(name) · group · 3 members · 1 online · connected")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }
}
